import { rank1_outcome } from "../score/metrics/distractor_diagnostics.ts";
import {
  evaluateMetrics,
  METRIC_REGISTRY,
  recomputableMetrics,
} from "../score/metrics/metric_registry.ts";
import type { MetricEntry } from "../score/metrics/metric.ts";
import type { RerankedQuery } from "./reranker.ts";
import type { CorpusRow, PerQueryRow, QueryRow, RankingRow } from "../tables/schema.ts";

/** Ranks a rankings table keeps. */
export const DEPTH = 10;

/** A pool snippet as the rankings rows need it. */
export type DocInfo = Pick<CorpusRow, "task_id" | "label" | "bug_type">;

/** A query as the reranked rows need it. */
export type QueryInfo = Pick<
  QueryRow,
  "query_id" | "task_id" | "source" | "domain" | "correct_ids"
>;

/**
 * The rankings rows of a reranked config for one query. `order` is the
 * reranker's list; `base` the base config's rows for the query (single-base
 * rerankers only: ranks after the reranked top k keep their base order, and
 * the canonical's own row below rank 10 keeps its base rank, since only the
 * top k moved). For fusion (`base` null) the fused list is the whole known
 * ranking: its first 10 are `in_top`, and a correct id found lower in it
 * gets its own row; a canonical in neither base's top 10 has no row (its
 * fused rank is unknown). Score is the reranker's where it gave one, else
 * the base's; `tie` is false (the reranked order is total).
 */
export function rerankedRankings(
  config: string,
  query: QueryInfo,
  order: RerankedQuery["order"],
  base: readonly RankingRow[] | null,
  docs: ReadonlyMap<string, DocInfo>,
): RankingRow[] {
  const row = (corpus_id: string, rank: number, score: number, inTop: boolean): RankingRow => {
    const d = docs.get(corpus_id);
    if (!d) {
      throw new Error(`${config}: query ${query.query_id}: ${corpus_id} is not in the corpus`);
    }
    return {
      config,
      query_id: query.query_id,
      rank,
      corpus_id,
      score,
      label: d.label,
      bug_type: d.bug_type ?? null,
      own_task: d.task_id === query.task_id,
      tie: false,
      in_top: inTop,
    };
  };
  const correct = new Set(query.correct_ids);
  if (base === null) {
    const rows = order.slice(0, DEPTH).map((o, i) => row(o.corpus_id, i + 1, o.score, true));
    if (!rows.some((r) => correct.has(r.corpus_id))) {
      const at = order.findIndex((o) => correct.has(o.corpus_id));
      if (at >= 0) rows.push(row(order[at].corpus_id, at + 1, order[at].score, false));
    }
    return rows;
  }
  const top = base.filter((r) => r.in_top).sort((a, b) => a.rank - b.rank);
  const moved = new Set(order.map((o) => o.corpus_id));
  const head = top.slice(0, order.length);
  if (head.length !== order.length || head.some((r) => !moved.has(r.corpus_id))) {
    throw new Error(
      `${config}: query ${query.query_id}: the reranked list is not a permutation of the base's top ${order.length}`,
    );
  }
  const rows = order.map((o, i) => row(o.corpus_id, i + 1, o.score, true));
  for (const r of top.slice(order.length)) rows.push(row(r.corpus_id, r.rank, r.score, true));
  for (const r of base) if (!r.in_top) rows.push(row(r.corpus_id, r.rank, r.score, false));
  return rows;
}

/**
 * The per_query rows of a reranked config for one query, from its rankings
 * rows: every metric of the registry that the rankings determine (exec,
 * precision, nDCG, the gap and MRR at each k ≤ 10; the uncut MRR and
 * canonical_rank, only when the canonical's rank is known — always for
 * single-base rerankers), in the score stage's row order; then
 * miss_own_distractor on a rank-1 miss, which the rankings also determine
 * (through `own_task`) though the registry files it with the score-vector
 * metrics. Tie-aware exec, margins and per-bug-type shares need full score
 * vectors and are absent.
 */
export function rerankedPerQuery(
  config: string,
  query: QueryInfo,
  rows: readonly RankingRow[],
  ks: readonly number[],
  canonicalKnown: boolean,
  registry: readonly MetricEntry[] = METRIC_REGISTRY,
): PerQueryRow[] {
  const correct = new Set(query.correct_ids);
  const top = rows.filter((r) => r.in_top).sort((a, b) => a.rank - b.rank);
  const relevant = top.map((r) => correct.has(r.corpus_id));
  const found = rows.filter((r) => correct.has(r.corpus_id)).map((r) => r.rank);
  const canonicalRank = found.length ? Math.min(...found) : Infinity;
  if (canonicalKnown && !Number.isFinite(canonicalRank)) {
    throw new Error(`${config}: query ${query.query_id}: no row for its correct id`);
  }
  // An unknown canonical rank (fusion) leaves out the uncut metrics that read it.
  const entries = recomputableMetrics(registry).filter((m) => canonicalKnown || m.at === "each_k");
  const points = evaluateMetrics(
    entries,
    { relevant, relevantCount: correct.size, canonicalRank },
    ks.filter((k) => k <= DEPTH),
  );
  if (top.length > 0) {
    const outcome = rank1_outcome(relevant[0], top[0].own_task);
    if (outcome !== "hit") {
      points.push({
        metric: "miss_own_distractor",
        k: 1,
        value: outcome === "own_distractor" ? 1 : 0,
      });
    }
  }
  return points.map((p) => ({
    config,
    query_id: query.query_id,
    source: query.source,
    domain: query.domain,
    ...p,
  }));
}
