import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { withNulls, writeTable } from "../io/arrow_table.ts";
import { fileExists } from "../io/file_exists.ts";
import { CORPUS, QUERIES, TASKS } from "../tables/schema.ts";
import { runEmbedStage } from "../embed/embed_stage.ts";
import { prefetchCommand, startBackgroundPrefetch } from "./background_prefetch.ts";
import { prefetchLine } from "./run_pipeline.ts";

const deno = (code: string) => [Deno.execPath(), "eval", code];

Deno.test("a failing background prefetch is reported, never thrown", async () => {
  const failing = startBackgroundPrefetch(
    [],
    deno('console.log(JSON.stringify({ texts: 64 })); console.error("boom"); Deno.exit(3)'),
  );
  await failing.exited;
  const end = await failing.stop();
  assertEquals(end, {
    texts: 64,
    finished: false,
    cpuSeconds: end.cpuSeconds,
    error: "exit code 3: boom",
  });
  ok(prefetchLine(end).includes("failed (exit code 3: boom)"), prefetchLine(end));
  // An uncaught error: its message, not the last frame of its stack.
  const thrown = startBackgroundPrefetch([], deno("await 0; throw new Error('kaput')"));
  await thrown.exited;
  const said = (await thrown.stop()).error;
  ok(said?.startsWith("exit code 1: error: Uncaught") && said.endsWith("Error: kaput"), said);
  const missing = await startBackgroundPrefetch([], ["/no/such/program"]).stop();
  ok(missing.error?.startsWith("cannot start /no/such/program"), missing.error);
});

Deno.test("a background prefetch still running is stopped; one that ended says so", async () => {
  // The program marks when it has reported its batch: stopping it after that
  // must count the batch however long the program took to start (a fixed
  // wait was too short on a loaded machine).
  const marker = join(await Deno.makeTempDir({ prefix: "execret-bgprefetch-" }), "reported");
  const running = startBackgroundPrefetch(
    [],
    deno(
      "console.log(JSON.stringify({ texts: 2 })); " +
        `Deno.writeTextFileSync(${JSON.stringify(marker)}, ""); ` +
        "await new Promise((r) => setTimeout(r, 60000))",
    ),
  );
  while (!(await fileExists(marker))) await new Promise((r) => setTimeout(r, 20));
  const end = await running.stop();
  strictEqual(end.finished, false);
  strictEqual(end.error, undefined);
  strictEqual(end.texts, 2);
  const done = startBackgroundPrefetch([], deno("console.log(JSON.stringify({ texts: 5 }))"));
  await done.exited;
  assertEquals({ ...(await done.stop()), cpuSeconds: 0 }, {
    texts: 5,
    finished: true,
    cpuSeconds: 0,
  });
});

Deno.test({
  name: "the prefetch program embeds USE queries the embed stage then adopts instead of embedding",
  sanitizeResources: false,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "execret-bgprefetch-" });
    Deno.env.set("EXECRET_OUT", out);
    Deno.env.delete("EXECRET_CACHE");
    try {
      const queries = ["add two numbers", "reverse a string", "is n prime"];
      const tasks = queries.map((query, i) => ({
        task_id: `t/${i}`,
        source: "builtin",
        source_id: String(i),
        domain: "math",
        domain_inferred: false,
        query,
        entry_point: "f",
        canonical: `def f(x):\n    return x + ${i}`,
        setup: "",
        tests: [],
        extra_tests: [],
        locator: `tasks.jsonl:${i + 1}`,
      }));
      await writeTable("tasks", withNulls(TASKS, tasks), TASKS, { parquet: false });
      const command = prefetchCommand(["bm25", "use"]);
      strictEqual(command.slice(0, 3).join(" "), "nice -n 19");
      // The program itself, not niced: under `make test` the other jobs
      // keep both cores busy, and a niced child would wait for them.
      const run = startBackgroundPrefetch(["bm25", "use"], command.slice(3));
      await run.exited;
      const end = await run.stop();
      assertEquals({ ...end, cpuSeconds: 0 }, { texts: 3, finished: true, cpuSeconds: 0 });

      // What the oracle would write with every canonical kept.
      await writeTable(
        "queries",
        withNulls(
          QUERIES,
          tasks.map((t) => ({ query_id: t.task_id, task_id: t.task_id, query: t.query })),
        ),
        QUERIES,
        { parquet: false },
      );
      await writeTable(
        "corpus",
        withNulls(
          CORPUS,
          tasks.map((t) => ({
            corpus_id: `${t.task_id}#c`,
            task_id: t.task_id,
            code: t.canonical,
          })),
        ),
        CORPUS,
        { parquet: false },
      );
      const { configs: [use] } = await runEmbedStage({ configs: ["use"], quiet: true, workers: 1 });
      strictEqual(use.prefetched, 3);
      strictEqual(use.embedded, 3, "only the three canonicals");
      strictEqual(use.rows, 6);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
