/**
 * A trial key's rate limit is waited out, not given up on: a user's model on
 * an OpenAI-compatible server that answers 429 with no Retry-After for 70 s
 * (longer than a full one-minute rate-limit window; the old retries gave up
 * after 31-63 s) completes its run, and the progress lines say it waits on a
 * rate limit. Real time: this test waits the 70 s (own `make unit` job).
 */
import { match, ok } from "node:assert/strict";
import { join } from "node:path";
import { ended, execret, TEST_TIMEOUT_MS } from "./_reproduce.ts";
import { openaiServer, userInvocations } from "./_openai_server.ts";
import { builtinTaskLines } from "../support/builtin_tasks.ts";

const QUICK = new URL("../../data/profiles/quick.json", import.meta.url);
const DIMS = 16;
const LIMITED_MS = 70_000;

Deno.test({
  name: "a 429 without Retry-After for 70 s is waited out, and said so",
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-rate-limit-" });
    const started = Date.now();
    const server = openaiServer(DIMS, { kind: "rate_limited_until", at: started + LIMITED_MS });
    try {
      const tasks = join(root, "tasks.jsonl");
      const lines = await builtinTaskLines();
      await Deno.writeTextFile(tasks, lines.slice(0, 4).join("\n") + "\n");
      const profile = join(root, "small.json");
      const quick = JSON.parse(await Deno.readTextFile(QUICK));
      await Deno.writeTextFile(
        profile,
        JSON.stringify({
          ...quick,
          name: "small",
          sources: [`jsonl:${tasks}`],
          configs: ["bm25"],
          runtime: "native",
          timeout_ms: TEST_TIMEOUT_MS,
          bootstrap: 200,
          site: false,
        }),
      );
      const mine = join(root, "mine.json");
      await Deno.writeTextFile(mine, JSON.stringify(userInvocations("my-model", server.url, DIMS)));
      const r = await ended(
        execret(join(root, "out"), [
          "reproduce",
          "--profile",
          profile,
          "--invocations",
          mine,
          "--config",
          "my-model",
        ]),
      );
      ok(r.code === 0, r.text.slice(-2000));
      ok(Date.now() - started >= LIMITED_MS, "the run waited the limit out");
      ok(server.limited() > 0, "the server did answer 429s");
      match(
        r.text,
        /my-model: waiting on a rate limit \(HTTP 429\): retry \d+ in [\d.]+ s, \d+ s of the 300 s retry budget left/,
      );
      match(r.text, /execret check: all \d+ checks pass/);
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
