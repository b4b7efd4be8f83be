import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { join } from "node:path";
import { currentProfile } from "./run_pipeline.ts";

/** A fresh output folder with `run.json` holding `text` (absent when null). */
async function outWithRunJson(text: string | null): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "execret-current-profile-" });
  Deno.env.set("EXECRET_OUT", out);
  Deno.env.delete("EXECRET_PROFILE");
  if (text !== null) await Deno.writeTextFile(join(out, "run.json"), text);
  return out;
}

/** The error `currentProfile` throws, checked to be one line naming run.json. */
function errorOf(out: string): string {
  let message = "";
  throws(() => currentProfile(), (e: Error) => {
    message = e.message;
    return true;
  });
  assertEquals(message.includes(join(out, "run.json")), true, message);
  assertEquals(message.includes("\n"), false, message);
  return message;
}

Deno.test("no out/run.json means no recorded profile: the default profile", async () => {
  await outWithRunJson(null);
  assertEquals(currentProfile().name, "default");
});

Deno.test("the profile recorded in out/run.json is the current one", async () => {
  await outWithRunJson(JSON.stringify({ profile: "quick" }));
  assertEquals(currentProfile().name, "quick");
});

Deno.test("a malformed out/run.json is a one-line error naming the file", async () => {
  const out = await outWithRunJson("{ profile: quick");
  const message = errorOf(out);
  assertEquals(/JSON/.test(message), true, message);
});

Deno.test("out/run.json without a profile name is a one-line error naming the file", async () => {
  const out = await outWithRunJson(JSON.stringify({ configs: ["bm25"] }));
  errorOf(out);
});

Deno.test("an unknown profile name in out/run.json is a one-line error naming the file", async () => {
  const out = await outWithRunJson(JSON.stringify({ profile: "no-such-profile" }));
  const message = errorOf(out);
  assertEquals(message.includes("no-such-profile"), true, message);
});

Deno.test("an out/run.json that cannot be read (a folder) is an error, not the default", async () => {
  const out = await outWithRunJson(null);
  await Deno.mkdir(join(out, "run.json"));
  errorOf(out);
});
