/**
 * Verdicts no snippet can forge: every technique of
 * test/fixtures/oracle/tamper.json runs on one worker of each runtime, each
 * followed in the same worker (one batch) by honest snippets with the same
 * tests. No technique's test may pass, each is refused or without effect as
 * its entry expects, and the honest snippets after it get their true
 * outcomes. Its own process under `make unit` (test/run_unit.ts).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createPool, type Runtime } from "./pool.ts";
import { interleaved, problem, tamperCorpus } from "../../test/support/tamper_fixture.ts";
import { testOnEachRuntime } from "../../test/support/pool_fixtures.ts";

async function tamperRun(runtime: Runtime): Promise<void> {
  const jobs = interleaved(tamperCorpus());
  // No technique relies on a time limit to end, and none may be judged by one:
  // forge_protocol writes 3,999 lines to 64 descriptors, which under Pyodide
  // took over 1 s under a load of 12 on 2 cores and was recorded as TIMEOUT
  // instead of its refusal. The limit here is only a backstop against a hang.
  const pool = await createPool({ runtime, workers: 1, timeoutMs: 20_000 });
  try {
    // All at once: one worker takes them in batches, in this order.
    const results = await Promise.all(jobs.map((j) => pool.run(j.job)));
    const problems: string[] = [];
    results.forEach((r, i) => {
      const { entry, role } = jobs[i];
      const p = problem(entry, role, r.map((o) => o.outcome));
      if (p) problems.push(p);
    });
    assertEquals(problems, []);
    // Techniques that tamper retire their worker; a Pyodide worker's
    // successor starts in the same host process (pyodide_host.ts), once
    // there is work for it: every retirement's but maybe the last.
    const { retired, renewed } = pool.stats();
    ok(retired > 1, `${retired} retirements`);
    if (runtime === "pyodide") ok(renewed === retired || renewed === retired - 1, `${renewed}`);
    else assertEquals(renewed, 0);
  } finally {
    pool.close();
  }
}

testOnEachRuntime("no snippet forges a verdict, its own or a later job's", tamperRun);
