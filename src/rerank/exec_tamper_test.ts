/**
 * The `exec` reranker over the tampering corpus (test/fixtures/oracle/tamper.json)
 * with the real oracle behind the hidden-test guard, as the rerank stage
 * wires it: each technique is ranked first, an honest wrong and an honest
 * right snippet after it, and every query's suites run at once on one worker
 * of each runtime. Only the honest right snippets (and the documented limits,
 * README "Sandbox") may pass and move up; no technique, and no wrong snippet
 * that ran after one, may.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createPool } from "../oracle/pool.ts";
import { options } from "../../test/support/pool_fixtures.ts";
import { tamperCorpus } from "../../test/support/tamper_fixture.ts";
import { execReranker } from "./exec.ts";
import { guardVisibleOnly } from "./hidden_guard.ts";
import type { RerankQuery } from "./reranker.ts";

for (const runtime of ["native", "pyodide"] as const) {
  Deno.test({
    name: `exec reranking: no tampering candidate passes or makes another pass (${runtime})`,
    ...options,
    fn: async () => {
      const entries = tamperCorpus();
      const pool = await createPool({ runtime, workers: 1, timeoutMs: 1000 });
      try {
        const split = new Map(entries.map((e) => [e.name, { visible: e.tests, hidden: [] }]));
        const { run } = guardVisibleOnly(async (job) => ({
          outcomes: await pool.run({
            setup: job.setup,
            code: job.code,
            tests: job.tests,
            stopAtTimeout: true,
          }),
        }), split);
        const queries: RerankQuery[] = entries.map((e) => ({
          query_id: e.name,
          task_id: e.name,
          query: e.technique,
          entry_point: "f",
          setup: "",
          rankings: [
            [e.code, e.wrong, e.right].map((code, i) => ({
              corpus_id: `${e.name}/${["technique", "wrong", "right"][i]}`,
              code,
              rank: i + 1,
              score: 0,
            })),
          ],
          visible_tests: e.tests,
        }));
        const result = await execReranker({ runSuite: run }).rerank({
          config: "x+exec",
          bases: ["x"],
          k: 3,
          queries,
        });
        const got = result.queries.map((q) => ({
          query: q.query_id,
          passed: q.order.filter((c) => c.score === 1).map((c) => c.corpus_id.split("/")[1]),
        }));
        const want = entries.map((e) => ({
          query: e.name,
          passed: e.notGuaranteed ? ["technique", "right"] : ["right"],
        }));
        assertEquals(got, want);
      } finally {
        pool.close();
      }
    },
  });
}
