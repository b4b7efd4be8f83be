/**
 * TREC run and qrels files, so trec_eval and ranx users can check every
 * number of the metrics table themselves.
 *
 * Run lines: `query_id Q0 corpus_id rank score run_name`, the top 10 of each
 * query from rankings.arrow (the canonical's own row below 10 is left out:
 * trec_eval reads a run by position, so a gap in ranks would be misread).
 * trec_eval orders a run by score, not by the rank column, and breaks ties
 * its own way, so the score column holds `1000 - rank` — strictly decreasing
 * in our tie-broken rank — and the similarity stays in rankings.arrow. Then
 * `P.k`, `ndcg_cut.k`, `success.k` (exec@k) and `recip_rank` (our mrr at
 * k = 10) match metrics.arrow for k ≤ 10.
 * Qrels lines: `query_id 0 corpus_id relevance`, 1 for correct ids, 0 for the
 * query's distractors.
 */

import type { QueryRow, RankingRow } from "../tables/schema.ts";

/** One row of a run (from rankings.arrow). */
export type RunRow = Pick<RankingRow, "query_id" | "corpus_id" | "rank">;

/**
 * TREC run text for one config; rows in query order, then rank.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(
 *   trecRun("bm25", [{ query_id: "q1", corpus_id: "d1", rank: 1 }]),
 *   "q1 Q0 d1 1 999 bm25\n",
 * );
 * ```
 */
export function trecRun(runName: string, rows: readonly RunRow[]): string {
  for (const s of [runName, ...rows.flatMap((r) => [r.query_id, r.corpus_id])]) {
    if (/\s/.test(s)) throw new Error(`TREC files cannot hold ids with whitespace: "${s}"`);
  }
  return rows.map((r) => `${r.query_id} Q0 ${r.corpus_id} ${r.rank} ${1000 - r.rank} ${runName}\n`)
    .join("");
}

/**
 * TREC qrels text: correct ids with relevance 1, distractors with 0.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(
 *   trecQrels([{ query_id: "q1", correct_ids: ["c"], distractor_ids: ["m"] }]),
 *   "q1 0 c 1\nq1 0 m 0\n",
 * );
 * ```
 */
export function trecQrels(
  queries: readonly Pick<QueryRow, "query_id" | "correct_ids" | "distractor_ids">[],
): string {
  let out = "";
  for (const q of queries) {
    for (const id of q.correct_ids) out += `${q.query_id} 0 ${id} 1\n`;
    for (const id of q.distractor_ids ?? []) out += `${q.query_id} 0 ${id} 0\n`;
  }
  return out;
}
