import { evaluateMetrics, METRIC_REGISTRY } from "./metrics/metric_registry.ts";
import type { MetricEntry } from "./metrics/metric.ts";
import type { BenchmarkQuery, PoolDoc } from "./benchmark.ts";
import { type Pool, rankQuery } from "./rank_query.ts";
import { fnv1a32 } from "./tie_break.ts";
import type { PerQueryRow, RankingRow } from "../tables/schema.ts";

/** Ranks kept in the rankings table. */
export const RANKINGS_DEPTH = 10;

/** A row of the rankings table and of the per_query table (derived from their specs). */

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
 * The per_query rows are the metric registry's (src/score/metrics/metric_registry.ts,
 * default {@link METRIC_REGISTRY}) in its order: for each k the cutoff
 * metrics (exec, precision, ndcg, gap, mrr), then the fixed-k ones
 * (expected_exec, top_tie, mrr and canonical_rank at k = 0,
 * miss_own_distractor on a rank-1 miss, and for queries with distractors
 * below_distractor, margin and `outrank:<bug_type>`).
 */
export function evaluateQuery(
  config: string,
  query: BenchmarkQuery,
  scores: Float32Array | Float64Array,
  ctx: PoolContext,
  ks: readonly number[],
  registry: readonly MetricEntry[] = METRIC_REGISTRY,
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

  const top = ranking.top[0];
  let correctAtTop = 0;
  for (const c of correct) if (scores[c] === scores[top]) correctAtTop++;
  const distractors = (query.distractor_ids ?? []).map(lookup);
  const evidence = {
    relevant,
    relevantCount: correct.size,
    canonicalRank,
    tiedAtTop: ranking.tiedAtTop,
    correctTiedAtTop: correctAtTop,
    top1OwnTask: ctx.docs[top].task_id === query.task_id,
    canonicalScore: scores[canonical],
    distractors: distractors.map((d) => ({
      score: scores[d],
      bugType: ctx.docs[d].bug_type ?? "unknown",
      outranks: ranking.above(d, canonical),
    })),
  };
  const perQuery = evaluateMetrics(registry, evidence, ks).map((p): PerQueryRow => ({
    config,
    query_id: query.query_id,
    source: query.source,
    domain: query.domain,
    metric: p.metric,
    k: p.k,
    value: p.value,
  }));
  return { rankings, perQuery };
}
