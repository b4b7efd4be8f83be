import { deepStrictEqual as assertEquals, rejects, throws } from "node:assert/strict";
import type { TestOutcome } from "../oracle/outcome.ts";
import { execReranker, mapInWindow, passersFirst } from "./exec.ts";
import type { ExecJob } from "./reranker.ts";
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

Deno.test("mapInWindow: input order kept, never more than the window pending", async () => {
  let pending = 0;
  let most = 0;
  const out = await mapInWindow([5, 1, 4, 2, 3, 0, 2], 3, async (x, i) => {
    pending++;
    most = Math.max(most, pending);
    // Items settle out of order: later items often finish first.
    await new Promise((r) => setTimeout(r, x));
    pending--;
    return `${i}:${x}`;
  });
  assertEquals(out, ["0:5", "1:1", "2:4", "3:2", "4:3", "5:0", "6:2"]);
  assertEquals(most, 3);
  assertEquals(await mapInWindow([], 4, () => Promise.resolve(1)), []);
  await rejects(() => mapInWindow([1], 0, () => Promise.resolve(1)), /window must be >= 1/);
});

Deno.test("exec reranker: suites of at most `window` queries in flight, answers in query order", async () => {
  let inFlight = 0;
  let most = 0;
  const run = async (job: ExecJob) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, job.code.length % 3));
    inFlight--;
    return { outcomes: job.tests.map((): TestOutcome => ({ outcome: "pass", ms: 1 })) };
  };
  const queries = Array.from({ length: 7 }, (_, i) => ({
    ...query(["a", "bb", "ccc"], ["t"]),
    query_id: `q${i}`,
  }));
  const r = await execReranker({ runSuite: run, window: 2 }).rerank({
    config: "bm25+exec",
    bases: ["bm25"],
    k: 3,
    queries,
  });
  assertEquals(r.queries.map((q) => q.query_id), queries.map((q) => q.query_id));
  assertEquals(most, 2 * 3);
  assertEquals(r.queries.every((q) => q.cost.suites === 3), true);
});
