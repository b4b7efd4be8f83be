import type { RankingsMetric } from "./metric.ts";

/**
 * Reciprocal rank of the canonical (the best-ranked correct snippet): 1/rank,
 * 0 when it is not in the ranking. Its mean over queries is the MRR.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(reciprocal_rank(4), 0.25);
 * ```
 */
export function reciprocal_rank(canonicalRank: number | null): number {
  if (canonicalRank === null) return 0;
  if (!(canonicalRank >= 1)) {
    throw new Error(`reciprocal_rank: rank must be ≥ 1, got ${canonicalRank}`);
  }
  return 1 / canonicalRank;
}

/**
 * Mean reciprocal rank over queries.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(mrr([1, 2, 4]), (1 + 0.5 + 0.25) / 3);
 * ```
 */
export function mrr(canonicalRanks: readonly (number | null)[]): number {
  if (canonicalRanks.length === 0) return NaN;
  let s = 0;
  for (const r of canonicalRanks) s += reciprocal_rank(r);
  return s / canonicalRanks.length;
}

/**
 * Reciprocal rank cut at k: 1/rank when the canonical is within the first k,
 * else 0 (trec_eval's recip_rank on a depth-k run).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(reciprocal_rank_at_k(4, 3), 0);
 * strictEqual(reciprocal_rank_at_k(2, 3), 0.5);
 * ```
 */
export function reciprocal_rank_at_k(canonicalRank: number, k: number): number {
  return canonicalRank <= k ? reciprocal_rank(canonicalRank) : 0;
}

/** Registry entry of MRR@k (reciprocal rank cut at each k). */
export const MRR_AT_K_METRIC: RankingsMetric = {
  name: "mrr",
  at: "each_k",
  label: "MRR@k",
  description: "1/rank of the canonical when it is within the first k, else 0.",
  better: "higher",
  leaderboard: false,
  recomputable: true,
  value: (q, k) => reciprocal_rank_at_k(q.canonicalRank, k),
};

/** Registry entry of the uncut MRR (k = 0). */
export const MRR_METRIC: RankingsMetric = {
  name: "mrr",
  at: 0,
  label: "MRR",
  description: "1/rank of the canonical, however low it ranks.",
  better: "higher",
  leaderboard: false,
  recomputable: true,
  value: (q) => reciprocal_rank(q.canonicalRank),
};

/** Registry entry of the canonical's rank (its mean over queries). */
export const CANONICAL_RANK_METRIC: RankingsMetric = {
  name: "canonical_rank",
  at: 0,
  label: "canonical rank",
  description: "Rank of the query's correct snippet in the whole pool.",
  better: "lower",
  leaderboard: false,
  recomputable: true,
  value: (q) => q.canonicalRank,
};
