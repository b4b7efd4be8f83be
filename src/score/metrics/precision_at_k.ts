import type { RankingsMetric } from "./metric.ts";

/**
 * precision@k (execution precision): the fraction of the first k results that
 * are correct. The denominator is k even when the ranking is shorter (as in
 * trec_eval and ranx), so a pool smaller than k cannot inflate it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(precision_at_k([true, false, true, false], 3), 2 / 3);
 * ```
 */
export function precision_at_k(relevant: readonly boolean[], k: number): number {
  if (k <= 0) throw new Error(`precision_at_k: k must be positive, got ${k}`);
  const n = Math.min(k, relevant.length);
  let hits = 0;
  for (let i = 0; i < n; i++) if (relevant[i]) hits++;
  return hits / k;
}

/** Registry entry of precision@k. */
export const PRECISION_METRIC: RankingsMetric = {
  name: "precision",
  at: "each_k",
  label: "precision@k",
  description: "The share of the first k results that pass the query's tests.",
  better: "higher",
  leaderboard: true,
  recomputable: true,
  value: (q, k) => precision_at_k(q.relevant, k),
};
