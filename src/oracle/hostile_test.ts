/**
 * The oracle's containment: the hostile snippets of test/fixtures/oracle/hostile.json
 * run one after another on one worker of each runtime, each getting its
 * outcome, none leaving a file, a connection or a mark on the worker. Its own
 * file, and its own process under `make unit` (test/run_unit.ts): mostly
 * waiting on timeouts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { createPool, type Runtime } from "./pool.ts";
import type { Outcome } from "./outcome.ts";
import { load, matches, NORMAL, testOnEachRuntime } from "../../test/support/pool_fixtures.ts";

async function hostileRun(runtime: Runtime): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "execret_oracle_" });
  const marker = join(dir, "marker");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      conn.close();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  const project = new URL("../../deno.json", import.meta.url).pathname;
  const fill = (s: string) =>
    s.replaceAll("{{MARKER}}", marker).replaceAll("{{PORT}}", String(port))
      .replaceAll("{{PROJECT_FILE}}", project);
  const pool = await createPool({
    runtime,
    workers: 1,
    // CPU time, so a loaded machine does not bring memory_growth's page
    // touching near it (it did at 300 ms of wall time); sleep_forever waits
    // out the 10x wall backstop, 3 s here, on each runtime.
    timeoutMs: 300,
    memoryLimitBytes: 64 * 1024 * 1024,
  });
  const failures: string[] = [];
  try {
    // One worker, one snippet at a time: later snippets check that earlier
    // ones left no trace in the worker.
    for (const s of load("hostile.json")) {
      const run = async () =>
        (await pool.run({
          setup: fill(s.setup ?? ""),
          code: fill(s.code),
          tests: s.tests.map(fill),
        })).map((o) => o.outcome);
      const good = (got: Outcome[]) =>
        got.length === s.expect.length && got.every((o, i) => matches(o, s.expect[i]));
      // The limit counts CPU time, so a TIMEOUT here is the snippet's own,
      // whatever else the machine is doing: no second try.
      const got = await run();
      if (!good(got)) {
        failures.push(
          `${s.name}: got ${JSON.stringify(got)}, expected ${JSON.stringify(s.expect)}`,
        );
      }
    }
    assertEquals(failures, []);
    // The pool still answers a normal job.
    const after = await pool.run(NORMAL);
    assertEquals(after.map((o) => o.outcome), ["pass", "FAIL"]);
    const stats = pool.stats();
    ok(stats.kills >= 1, `expected hard kills, got ${JSON.stringify(stats)}`);
    if (runtime === "pyodide") {
      ok(stats.recycles >= 1, `expected a recycle: ${JSON.stringify(stats)}`);
    }
  } finally {
    pool.close();
    listener.close();
    await accepting.catch(() => {});
  }
  assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), [], "a snippet wrote a file");
  await Deno.remove(dir, { recursive: true });
  assertEquals(connections, 0, "a snippet reached the loopback server");
}

testOnEachRuntime("hostile snippets get outcomes and leave no trace", hostileRun);
