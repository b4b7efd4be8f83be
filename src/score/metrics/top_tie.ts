import type { ScoresMetric } from "./metric.ts";

/**
 * 1 when the top score is shared by more than one document, else 0: how
 * often exec@1 rests on the tie-break rather than on the scores.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(top_tie(3), 1);
 * strictEqual(top_tie(1), 0);
 * ```
 */
export function top_tie(tiedAtTop: number): number {
  return tiedAtTop > 1 ? 1 : 0;
}

/** Registry entry of top_tie (needs the full scores). */
export const TOP_TIE_METRIC: ScoresMetric = {
  name: "top_tie",
  at: 1,
  label: "tie at rank 1",
  description: "The top score is shared by more than one snippet.",
  better: "lower",
  leaderboard: false,
  recomputable: false,
  value: (q) => top_tie(q.tiedAtTop),
};
