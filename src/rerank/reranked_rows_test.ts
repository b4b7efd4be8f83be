import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import type { RankingRow } from "../tables/schema.ts";
import { recomputeMetricsFromRankings } from "../stats/recompute.ts";
import { type DocInfo, rerankedPerQuery, rerankedRankings } from "./reranked_rows.ts";

const docs = new Map<string, DocInfo>([
  ["t#c", { task_id: "t", label: "correct", bug_type: null }],
  ["t#m0", { task_id: "t", label: "incorrect", bug_type: "off_by_one" }],
  ["t#m1", { task_id: "t", label: "incorrect", bug_type: "wrong_operator" }],
  ["u#c", { task_id: "u", label: "correct", bug_type: null }],
]);
const query = {
  query_id: "t",
  task_id: "t",
  source: "builtin",
  domain: "math",
  correct_ids: ["t#c"],
};

function base(ids: string[], extra?: [string, number]): RankingRow[] {
  const row = (corpus_id: string, rank: number, inTop: boolean): RankingRow => ({
    config: "b",
    query_id: "t",
    rank,
    corpus_id,
    score: 1 / rank,
    label: docs.get(corpus_id)!.label,
    bug_type: docs.get(corpus_id)!.bug_type,
    own_task: docs.get(corpus_id)!.task_id === "t",
    tie: false,
    in_top: inTop,
  });
  const rows = ids.map((id, i) => row(id, i + 1, true));
  if (extra) rows.push(row(extra[0], extra[1], false));
  return rows;
}

Deno.test("rerankedRankings: the top k reordered, the rest and the canonical's own row kept", () => {
  const rows = rerankedRankings(
    "b+exec",
    query,
    [{ corpus_id: "u#c", score: 1 }, { corpus_id: "t#m0", score: 0 }],
    base(["t#m0", "u#c", "t#m1"], ["t#c", 14]),
    docs,
  );
  assertEquals(rows.map((r) => [r.rank, r.corpus_id, r.in_top, r.own_task]), [
    [1, "u#c", true, false],
    [2, "t#m0", true, true],
    [3, "t#m1", true, true],
    [14, "t#c", false, true],
  ]);
  assertEquals(rows.map((r) => r.config), ["b+exec", "b+exec", "b+exec", "b+exec"]);
  throws(
    () =>
      rerankedRankings("b+exec", query, [{ corpus_id: "t#m1", score: 1 }], base(["t#m0"]), docs),
    /not a permutation/,
  );
});

Deno.test("rerankedPerQuery: the same values the rankings recomputation gives", () => {
  const rows = rerankedRankings(
    "b+exec",
    query,
    [{ corpus_id: "t#m1", score: 1 }, { corpus_id: "t#c", score: 1 }, {
      corpus_id: "t#m0",
      score: 0,
    }],
    base(["t#m0", "t#m1", "t#c"]),
    docs,
  );
  const pq = rerankedPerQuery("b+exec", query, rows, [1, 3, 20], true);
  const get = (m: string, k: number) => pq.find((r) => r.metric === m && r.k === k)?.value;
  assertEquals(get("exec", 1), 0);
  assertEquals(get("exec", 3), 1);
  assertEquals(get("mrr", 0), 0.5);
  assertEquals(get("canonical_rank", 0), 2);
  assertEquals(get("miss_own_distractor", 1), 1);
  assertEquals(get("exec", 20), undefined); // rankings keep 10 ranks
  const again = recomputeMetricsFromRankings(rows, [{ query_id: "t", correct_ids: ["t#c"] }], [
    1,
    3,
  ]);
  for (const r of pq) {
    const want = again.get(`${r.config}|${r.metric}|${r.k}`);
    if (want !== undefined) assertEquals(r.value, want, `${r.metric}@${r.k}`);
  }
});

Deno.test("fusion rows: the fused top 10, a lower canonical's own row, rank unknown beyond", () => {
  const order = ["u#c", "t#m0", "t#m1"].map((corpus_id, i) => ({ corpus_id, score: 1 / (i + 61) }));
  const rows = rerankedRankings("rrf:a+b", query, order, null, docs);
  assertEquals(rows.map((r) => r.rank), [1, 2, 3]);
  const pq = rerankedPerQuery("rrf:a+b", query, rows, [1], false);
  assertEquals(pq.map((r) => r.metric).sort(), [
    "exec",
    "gap",
    "miss_own_distractor",
    "mrr",
    "ndcg",
    "precision",
  ]);
  assertEquals(pq.find((r) => r.metric === "miss_own_distractor")!.value, 0); // another task's code
  const long = Array.from(
    { length: 11 },
    (_, i) => ({ corpus_id: i === 10 ? "t#c" : `x${i}`, score: 0 }),
  );
  const docs2 = new Map(docs);
  for (let i = 0; i < 10; i++) {
    docs2.set(`x${i}`, { task_id: "x", label: "incorrect", bug_type: null });
  }
  const rows2 = rerankedRankings("rrf:a+b", query, long, null, docs2);
  assertEquals(rows2.at(-1)!.corpus_id, "t#c");
  assertEquals([rows2.at(-1)!.rank, rows2.at(-1)!.in_top], [11, false]);
});
