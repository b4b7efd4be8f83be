import type { RankingsMetric } from "../../src/score/metrics/metric.ts";
import { precision_at_k } from "../../src/score/metrics/precision_at_k.ts";

/**
 * R-precision (trec_eval's `Rprec`): precision at R, where R is how many
 * correct ids the query has. With the paper's one correct id per query it
 * equals exec@1; it differs when a query accepts several implementations.
 * Null (no row) when R is 0 or deeper than the ranks kept, since the missing
 * ranks could not be read.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(r_precision([true, false, true, false], 2), 0.5); // one of the first two is correct
 * ```
 */
export function r_precision(relevant: readonly boolean[], relevantCount: number): number | null {
  if (relevantCount === 0 || relevantCount > relevant.length) return null;
  return precision_at_k(relevant, relevantCount);
}

/** Registry entry: one value per query (k = 0), recomputable from the top 10. */
export const R_PRECISION_METRIC: RankingsMetric = {
  name: "r_precision",
  at: 0,
  label: "R-precision",
  description: "Precision at R, the number of the query's correct ids.",
  better: "higher",
  leaderboard: false,
  recomputable: true,
  value: (q) => r_precision(q.relevant, q.relevantCount),
};
