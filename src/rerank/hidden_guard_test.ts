import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { execReranker } from "./exec.ts";
import { guardVisibleOnly } from "./hidden_guard.ts";
import type { ExecJob, RerankQuery } from "./reranker.ts";
import { testSplit, visibleAndHidden } from "./visible_tests.ts";

const TASKS = [
  {
    task_id: "builtin/a",
    source: "builtin",
    query: "",
    entry_point: "f",
    tests: ["A0", "A1", "A2"],
  },
  { task_id: "builtin/b", source: "builtin", query: "", entry_point: "g", tests: ["B0", "B1"] },
];

function queries(visibleOf: (task: string) => string[]): RerankQuery[] {
  return TASKS.map((t) => ({
    query_id: t.task_id,
    task_id: t.task_id,
    query: t.query,
    entry_point: t.entry_point,
    setup: "",
    rankings: [
      [0, 1, 2].map((i) => ({
        corpus_id: `${t.task_id}#${i}`,
        code: `c${i}`,
        rank: i + 1,
        score: 0,
      })),
    ],
    visible_tests: visibleOf(t.task_id),
  }));
}

Deno.test("hidden-test guard: the exec reranker runs only visible tests, every pair counted", async () => {
  const split = visibleAndHidden(testSplit(TASKS, 20260510));
  const executed: ExecJob[] = [];
  const { run, log } = guardVisibleOnly((job) => {
    executed.push(job);
    return Promise.resolve({
      outcomes: job.tests.map(() => ({ outcome: "pass" as const, ms: 1 })),
    });
  }, split);
  const r = await execReranker({ runSuite: run }).rerank({
    config: "x+exec",
    bases: ["x"],
    k: 3,
    queries: queries((t) => split.get(t)!.visible),
  });
  // Every (snippet, test) pair that reached the runner is visible and none is hidden.
  const pairs = executed.flatMap((j) => j.tests.map((t) => [j.task_id, j.code, t]));
  assertEquals(pairs.length, 6); // 2 tasks × 3 candidates × 1 visible test
  assertEquals(log.pairs, pairs.length);
  assertEquals(log.hidden, 0);
  for (const [task, , test] of pairs) {
    ok(split.get(task)!.visible.includes(test), `${task}: ${test} is visible`);
    ok(!split.get(task)!.hidden.includes(test), `${task}: ${test} is not hidden`);
  }
  assertEquals(r.queries.reduce((s, q) => s + q.cost.tests, 0), log.pairs);
});

Deno.test("hidden-test guard: a broken split that hands a hidden test over is refused before it runs", async () => {
  const split = visibleAndHidden(testSplit(TASKS, 20260510));
  let ran = 0;
  const { run, log } = guardVisibleOnly((job) => {
    ran++;
    return Promise.resolve({
      outcomes: job.tests.map(() => ({ outcome: "pass" as const, ms: 1 })),
    });
  }, split);
  // The deliberately broken split: every test of the suite given as visible.
  const all = (t: string) => TASKS.find((x) => x.task_id === t)!.tests;
  await rejects(
    execReranker({ runSuite: run }).rerank({
      config: "x+exec",
      bases: ["x"],
      k: 3,
      queries: queries(all),
    }),
    /hidden-test guard: task builtin\/a: refused to run a test that is not visible/,
  );
  assertEquals(ran, 0);
  ok(log.hidden > 0);
  // An unknown task is refused too.
  await rejects(run({ task_id: "nope", setup: "", code: "", tests: [] }), /has no split/);
});
