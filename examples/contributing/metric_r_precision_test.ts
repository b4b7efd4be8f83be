/**
 * The worked example of CONTRIBUTING.md's "metric" section: R-precision,
 * plugged into the registry the score stage and the rankings check iterate,
 * as the one line in src/score/metrics/metric_registry.ts would.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { METRIC_REGISTRY } from "../../src/score/metrics/metric_registry.ts";
import { evaluateQuery, poolContext } from "../../src/score/evaluate_query.ts";
import { recomputeMetricsFromRankings } from "../../src/stats/recompute.ts";
import { R_PRECISION_METRIC } from "./metric_r_precision.ts";

// The one line: the registry with the new entry appended.
const registry = [...METRIC_REGISTRY, R_PRECISION_METRIC];

// Task t accepts two implementations (t#c, t#c2) and has one buggy copy; u is another task.
const docs = [
  { corpus_id: "t#c", task_id: "t", label: "correct", bug_type: null, code: "" },
  { corpus_id: "t#c2", task_id: "t", label: "correct", bug_type: null, code: "" },
  { corpus_id: "t#m0", task_id: "t", label: "incorrect", bug_type: "off_by_one", code: "" },
  { corpus_id: "u#c", task_id: "u", label: "correct", bug_type: null, code: "" },
];
const ctx = poolContext(docs);
const query = (id: string, task: string, correct: string[], distractors: string[]) => ({
  query_id: id,
  task_id: task,
  source: "builtin",
  domain: "example",
  query: "",
  correct_ids: correct,
  distractor_ids: distractors,
});
const t = query("t", "t", ["t#c", "t#c2"], ["t#m0"]);
const u = query("u", "u", ["u#c"], []);
// t: t#c first, the buggy copy second, t#c2 third → R = 2, one correct in the top 2.
const tScores = new Float32Array([0.9, 0.5, 0.7, 0.1]);
// u: its canonical second, behind t#c → R = 1, exec@1 = 0.
const uScores = new Float32Array([0.8, 0.2, 0.3, 0.6]);

Deno.test("the score stage writes r_precision after the built-in rows, which stay as they were", () => {
  const ks = [1, 3];
  const withIt = evaluateQuery("x", t, tScores, ctx, ks, registry).perQuery;
  const without = evaluateQuery("x", t, tScores, ctx, ks).perQuery;
  assertEquals(withIt.slice(0, without.length), without);
  assertEquals(withIt.slice(without.length).map((r) => [r.metric, r.k, r.value]), [
    ["r_precision", 0, 0.5],
  ]);
  // With one correct id R-precision is exec@1.
  const rows = evaluateQuery("x", u, uScores, ctx, ks, registry).perQuery;
  const v = (metric: string, k: number) => rows.find((r) => r.metric === metric && r.k === k)!;
  assertEquals(v("r_precision", 0).value, v("exec", 1).value);
  assertEquals(v("r_precision", 0).value, 0);
});

Deno.test("execret check recomputes r_precision from the rankings table alike", () => {
  const runs = [[t, tScores], [u, uScores]] as const;
  const evaluated = runs.map(([q, s]) => evaluateQuery("x", q, s, ctx, [1], registry));
  const recomputed = recomputeMetricsFromRankings(
    evaluated.flatMap((e) => e.rankings),
    [t, u],
    [1],
    registry,
  );
  const perQuery = evaluated.flatMap((e) => e.perQuery).filter((r) => r.metric === "r_precision");
  assertEquals(perQuery.map((r) => r.value), [0.5, 0]);
  assertEquals(recomputed.get("x|r_precision|0"), 0.25);
  // Without the line, nothing is recomputed for it.
  const builtIn = recomputeMetricsFromRankings(evaluated.flatMap((e) => e.rankings), [t, u], [1]);
  ok(!builtIn.has("x|r_precision|0"));
});
