import { exec_at_k, expected_exec_at_1 } from "../metrics/exec_at_k.ts";
import { precision_at_k } from "../metrics/precision_at_k.ts";
import { exec_ndcg_gap, ndcg_at_k } from "../metrics/ndcg_at_k.ts";
import { reciprocal_rank } from "../metrics/mrr.ts";
import {
  canonical_below_distractor,
  canonical_margin,
  outrank_share_by_bug_type,
  rank1_outcome,
} from "../metrics/distractor_diagnostics.ts";
import type { BenchmarkQuery, PoolDoc } from "./benchmark.ts";
import { type Pool, rankQuery } from "./rank_query.ts";
import { fnv1a32 } from "./tie_break.ts";

/** Ranks kept in the rankings table. */
export const RANKINGS_DEPTH = 10;

/** A row of the rankings table (spec RANKINGS). */
export type RankingRow = {
  config: string;
  query_id: string;
  rank: number;
  corpus_id: string;
  score: number;
  label: string;
  bug_type: string | null;
  own_task: boolean;
  tie: boolean;
  in_top: boolean;
};

/** A row of the per_query table (spec PER_QUERY). */
export type PerQueryRow = {
  config: string;
  query_id: string;
  source: string;
  domain: string;
  metric: string;
  k: number;
  value: number;
};

/** The pool with lookups, shared by every query of a config. */
export interface PoolContext {
  pool: Pool;
  docs: readonly PoolDoc[];
  index: ReadonlyMap<string, number>;
}

/** Build the {@link PoolContext} of a corpus (ids hashed once for the tie-break). */
export function poolContext(docs: readonly PoolDoc[]): PoolContext {
  const ids = docs.map((d) => d.corpus_id);
  return {
    pool: { ids, hashes: Uint32Array.from(ids, (id) => fnv1a32(id)) },
    docs,
    index: new Map(ids.map((id, i) => [id, i])),
  };
}

/**
 * Rank the pool for one query and compute every per-query metric from the
 * full scores: the rankings rows (top 10, plus the canonical's own row when it
 * is lower) and the per_query rows. The canonical is the query's best-ranked
 * correct id (there is one correct id per query in the paper's benchmark).
 *
 * Per-query metrics (k = 0 when there is no cutoff): exec, precision, ndcg,
 * gap and mrr (reciprocal rank cut at k, as trec_eval's recip_rank on a
 * depth-k run) at each k; expected_exec (k = 1, tie-aware); top_tie (k = 1, the top
 * score is shared); mrr (k = 0: uncut) and canonical_rank; miss_own_distractor (k = 1, only
 * on a rank-1 miss: 1 when the winner is one of the query's own distractors, 0
 * when it is another task's code); and, for queries with distractors,
 * below_distractor, margin and `outrank:<bug_type>` (the share of the
 * query's distractors of that type ranked above the canonical).
 */
export function evaluateQuery(
  config: string,
  query: BenchmarkQuery,
  scores: Float32Array,
  ctx: PoolContext,
  ks: readonly number[],
): { rankings: RankingRow[]; perQuery: PerQueryRow[] } {
  const depth = Math.max(RANKINGS_DEPTH, ...ks);
  const ranking = rankQuery(scores, ctx.pool, fnv1a32(query.query_id), depth);
  const lookup = (id: string) => {
    const i = ctx.index.get(id);
    if (i === undefined) throw new Error(`query ${query.query_id}: ${id} is not in the pool`);
    return i;
  };
  const correct = new Set(query.correct_ids.map(lookup));
  const relevant = ranking.top.map((d) => correct.has(d));
  let canonical = -1, canonicalRank = Infinity;
  for (const c of correct) {
    const r = ranking.rankOf(c);
    if (r < canonicalRank) [canonical, canonicalRank] = [c, r];
  }
  const row = (d: number, rank: number, tie: boolean, inTop: boolean): RankingRow => {
    const doc = ctx.docs[d];
    return {
      config,
      query_id: query.query_id,
      rank,
      corpus_id: doc.corpus_id,
      score: scores[d],
      label: doc.label,
      bug_type: doc.bug_type ?? null,
      own_task: doc.task_id === query.task_id,
      tie,
      in_top: inTop,
    };
  };
  const rankings = ranking.top.slice(0, RANKINGS_DEPTH).map((d, i) =>
    row(d, i + 1, ranking.topTie[i], true)
  );
  if (canonicalRank > RANKINGS_DEPTH) {
    rankings.push(row(canonical, canonicalRank, ranking.tied(canonical), false));
  }

  const perQuery: PerQueryRow[] = [];
  const put = (metric: string, k: number, value: number) =>
    perQuery.push({
      config,
      query_id: query.query_id,
      source: query.source,
      domain: query.domain,
      metric,
      k,
      value,
    });
  const nRelevant = correct.size;
  for (const k of ks) {
    put("exec", k, exec_at_k(relevant, k));
    put("precision", k, precision_at_k(relevant, k));
    put("ndcg", k, ndcg_at_k(relevant, k, nRelevant));
    put("gap", k, exec_ndcg_gap(relevant, k, nRelevant));
    put("mrr", k, canonicalRank <= k ? reciprocal_rank(canonicalRank) : 0);
  }
  const top = ranking.top[0];
  let correctAtTop = 0;
  for (const c of correct) if (scores[c] === scores[top]) correctAtTop++;
  put("expected_exec", 1, expected_exec_at_1(ranking.tiedAtTop, correctAtTop));
  put("top_tie", 1, ranking.tiedAtTop > 1 ? 1 : 0);
  put("mrr", 0, reciprocal_rank(canonicalRank));
  put("canonical_rank", 0, canonicalRank);
  const outcome = rank1_outcome(relevant[0], ctx.docs[top].task_id === query.task_id);
  if (outcome !== "hit") put("miss_own_distractor", 1, outcome === "own_distractor" ? 1 : 0);
  const distractors = (query.distractor_ids ?? []).map(lookup);
  if (distractors.length > 0) {
    const ds = distractors.map((d) => scores[d]);
    put("below_distractor", 0, canonical_below_distractor(scores[canonical], ds));
    put("margin", 0, canonical_margin(scores[canonical], ds)!);
    const shares = outrank_share_by_bug_type(distractors.map((d) => ({
      bugType: ctx.docs[d].bug_type ?? "unknown",
      outranks: ranking.above(d, canonical),
    })));
    for (const [bugType, share] of shares) put(`outrank:${bugType}`, 0, share);
  }
  return { rankings, perQuery };
}
