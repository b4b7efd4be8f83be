import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { runInfo } from "./run_info.ts";

Deno.test("with no manifest.json the run info says so (null, shown in words by the page)", async () => {
  Deno.env.set("EXECRET_OUT", await Deno.makeTempDir({ prefix: "execret-runinfo-" }));
  const info = await runInfo();
  assertEquals([info.manifest, info.manifest_sha256, info.manifest_time], [null, null, null]);
  ok(info.invocations.length > 0, "the invocation table is still read");
});

Deno.test("a malformed manifest.json is an error naming it, not 'no manifest'", async () => {
  const out = await Deno.makeTempDir({ prefix: "execret-runinfo-" });
  Deno.env.set("EXECRET_OUT", out);
  await Deno.writeTextFile(join(out, "manifest.json"), "{ truncated");
  await rejects(() => runInfo(), (e: Error) => e.message.startsWith(join(out, "manifest.json")));
});
