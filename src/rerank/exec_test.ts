import { deepStrictEqual as assertEquals, rejects, throws } from "node:assert/strict";
import type { TestOutcome } from "../oracle/outcome.ts";
import { type ExecJob, execReranker, passersFirst } from "./exec.ts";
import type { RerankQuery } from "./reranker.ts";

Deno.test("passersFirst: passing candidates first, base order kept within each group", () => {
  assertEquals(passersFirst(["a", "b", "c", "d", "e"], [false, true, false, true, false]), [
    "b",
    "d",
    "a",
    "c",
    "e",
  ]);
  assertEquals(passersFirst(["a", "b"], [true, true]), ["a", "b"]);
  assertEquals(passersFirst(["a", "b"], [false, false]), ["a", "b"]);
  throws(() => passersFirst(["a"], []), /1 candidates, 0 outcomes/);
});

// A stand-in "interpreter" for the order logic: a snippet passes a test when
// its code names the test. Real execution is covered by the pipeline test.
const fakeRun = (jobs: ExecJob[]) => (job: ExecJob) => {
  jobs.push(job);
  return Promise.resolve({
    outcomes: job.tests.map((t): TestOutcome => ({
      outcome: job.code.includes(t) ? "pass" : "FAIL",
      ms: 2,
    })),
  });
};

function query(codes: string[], visible: string[]): RerankQuery {
  return {
    query_id: "q1",
    task_id: "t1",
    query: "",
    entry_point: "f",
    setup: "S",
    rankings: [
      codes.map((code, i) => ({ corpus_id: `d${i}`, code, rank: i + 1, score: 1 - i / 10 })),
    ],
    visible_tests: visible,
  };
}

Deno.test("exec reranker: runs each candidate on the visible tests and moves passers up", async () => {
  const jobs: ExecJob[] = [];
  const r = await execReranker({ runSuite: fakeRun(jobs) }).rerank({
    config: "b+exec",
    bases: ["b"],
    k: 4,
    queries: [query(["x", "t1 t2", "t1", "t2 t1"], ["t1", "t2"])],
  });
  const q = r.queries[0];
  assertEquals(q.order.map((o) => o.corpus_id), ["d1", "d3", "d0", "d2"]);
  assertEquals(q.order.map((o) => o.score), [1, 1, 0, 0]);
  assertEquals(q.cost, { suites: 4, tests: 8, oracle_seconds: 0.016, api_calls: 0, tokens: 0 });
  assertEquals(jobs.map((j) => [j.task_id, j.setup, j.tests]), [
    ["t1", "S", ["t1", "t2"]],
    ["t1", "S", ["t1", "t2"]],
    ["t1", "S", ["t1", "t2"]],
    ["t1", "S", ["t1", "t2"]],
  ]);
});

Deno.test("exec reranker: no visible tests, no runs and the base order", async () => {
  const jobs: ExecJob[] = [];
  const r = await execReranker({ runSuite: fakeRun(jobs) }).rerank({
    config: "b+exec",
    bases: ["b"],
    k: 2,
    queries: [query(["x", "y"], [])],
  });
  assertEquals(r.queries[0].order.map((o) => o.corpus_id), ["d0", "d1"]);
  assertEquals(r.queries[0].cost.suites, 0);
  assertEquals(jobs.length, 0);
});

Deno.test("exec reranker: tests after a stopping TIMEOUT are not counted; errors propagate", async () => {
  const r = await execReranker({
    runSuite: () =>
      Promise.resolve({
        outcomes: [{ outcome: "TIMEOUT", ms: 1000 }, { outcome: "NOT_RUN", ms: 0 }],
      }),
  }).rerank({ config: "b+exec", bases: ["b"], k: 1, queries: [query(["x"], ["a", "b"])] });
  assertEquals(r.queries[0].cost.tests, 1);
  assertEquals(r.queries[0].cost.oracle_seconds, 1);
  throws(() => execReranker({}), /no suite runner/);
  await rejects(
    execReranker({ runSuite: () => Promise.reject(new Error("boom")) }).rerank({
      config: "b+exec",
      bases: ["b"],
      k: 1,
      queries: [query(["x"], ["a"])],
    }),
    /boom/,
  );
});
