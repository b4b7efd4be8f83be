import { exec_at_k } from "../metrics/exec_at_k.ts";
import { precision_at_k } from "../metrics/precision_at_k.ts";
import { exec_ndcg_gap, ndcg_at_k } from "../metrics/ndcg_at_k.ts";
import { reciprocal_rank } from "../metrics/mrr.ts";
import { rank1_outcome } from "../metrics/distractor_diagnostics.ts";
import type { PerQueryRow, RankingRow } from "../score/evaluate_query.ts";
import type { RerankedQuery } from "./reranker.ts";
import type { CorpusRow, QueryRow } from "../tables/schema.ts";

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
 * rows and with the score stage's metric functions: exec, precision, nDCG,
 * the gap and MRR at each k ≤ 10; the uncut MRR and canonical_rank when the
 * canonical's rank is known (always for single-base rerankers); and
 * miss_own_distractor on a rank-1 miss. Tie-aware exec, margins and
 * per-bug-type shares need full score vectors and are absent.
 */
export function rerankedPerQuery(
  config: string,
  query: QueryInfo,
  rows: readonly RankingRow[],
  ks: readonly number[],
  canonicalKnown: boolean,
): PerQueryRow[] {
  const correct = new Set(query.correct_ids);
  const top = rows.filter((r) => r.in_top).sort((a, b) => a.rank - b.rank);
  const relevant = top.map((r) => correct.has(r.corpus_id));
  const out: PerQueryRow[] = [];
  const put = (metric: string, k: number, value: number) =>
    out.push({
      config,
      query_id: query.query_id,
      source: query.source,
      domain: query.domain,
      metric,
      k,
      value,
    });
  const found = rows.filter((r) => correct.has(r.corpus_id)).map((r) => r.rank);
  const canonicalRank = found.length ? Math.min(...found) : Infinity;
  for (const k of ks) {
    if (k > DEPTH) continue;
    put("exec", k, exec_at_k(relevant, k));
    put("precision", k, precision_at_k(relevant, k));
    put("ndcg", k, ndcg_at_k(relevant, k, correct.size));
    put("gap", k, exec_ndcg_gap(relevant, k, correct.size));
    put("mrr", k, canonicalRank <= k ? reciprocal_rank(canonicalRank) : 0);
  }
  if (canonicalKnown) {
    if (!Number.isFinite(canonicalRank)) {
      throw new Error(`${config}: query ${query.query_id}: no row for its correct id`);
    }
    put("mrr", 0, reciprocal_rank(canonicalRank));
    put("canonical_rank", 0, canonicalRank);
  }
  if (top.length > 0) {
    const outcome = rank1_outcome(relevant[0], top[0].own_task);
    if (outcome !== "hit") put("miss_own_distractor", 1, outcome === "own_distractor" ? 1 : 0);
  }
  return out;
}
