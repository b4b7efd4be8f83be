import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { evaluateQuery, poolContext } from "./evaluate_query.ts";

const docs = [
  { corpus_id: "t#c", task_id: "t", label: "correct", bug_type: null, code: "" },
  { corpus_id: "t#m0", task_id: "t", label: "incorrect", bug_type: "off_by_one", code: "" },
  { corpus_id: "t#m1", task_id: "t", label: "incorrect", bug_type: "wrong_operator", code: "" },
  { corpus_id: "u#c", task_id: "u", label: "correct", bug_type: null, code: "" },
];
const query = {
  query_id: "t",
  task_id: "t",
  source: "builtin",
  domain: "geometry",
  query: "",
  correct_ids: ["t#c"],
  distractor_ids: ["t#m0", "t#m1"],
};

Deno.test("a canonical tied with its distractors at the top: expected exec@1 = 1/3", () => {
  const { rankings, perQuery } = evaluateQuery(
    "x",
    query,
    new Float32Array([0.5, 0.5, 0.5, 0.1]),
    poolContext(docs),
    [1, 3, 10],
  );
  const v = (metric: string, k: number) =>
    perQuery.find((r) => r.metric === metric && r.k === k)?.value;
  assertEquals(v("expected_exec", 1), 1 / 3);
  assertEquals(v("top_tie", 1), 1);
  assertEquals(v("exec", 3), 1);
  assertEquals(v("below_distractor", 0), 0); // tied, not below
  assertEquals(v("margin", 0), 0);
  // exec@1 follows the tie-break; the rankings say where the canonical landed
  const rank = rankings.find((r) => r.corpus_id === "t#c")!.rank;
  assertEquals(v("exec", 1), rank === 1 ? 1 : 0);
  assertEquals(v("canonical_rank", 0), rank);
  // outranked-by shares follow the same order
  const above = (id: string) => rankings.find((r) => r.corpus_id === id)!.rank < rank ? 1 : 0;
  assertEquals(v("outrank:off_by_one", 0), above("t#m0"));
  assertEquals(v("outrank:wrong_operator", 0), above("t#m1"));
  assertEquals(rankings.slice(0, 3).map((r) => r.tie), [true, true, true]);
  assertEquals(rankings[3].tie, false);
  // k = 10 on a pool of 4: precision divides by 10
  assertEquals(v("precision", 10), 0.1);
});
