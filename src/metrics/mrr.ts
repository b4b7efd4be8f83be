/**
 * Reciprocal rank of the canonical (the best-ranked correct snippet): 1/rank,
 * 0 when it is not in the ranking. Its mean over queries is the MRR.
 *
 * @example
 * ```ts
 * reciprocal_rank(4); // 0.25
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
 * mrr([1, 2, 4]); // (1 + 0.5 + 0.25) / 3
 * ```
 */
export function mrr(canonicalRanks: readonly (number | null)[]): number {
  if (canonicalRanks.length === 0) return NaN;
  let s = 0;
  for (const r of canonicalRanks) s += reciprocal_rank(r);
  return s / canonicalRanks.length;
}
