import { exec_at_k } from "./exec_at_k.ts";
import type { RankingsMetric } from "./metric.ts";

/**
 * nDCG@k with binary gains (a correct snippet has gain 1, anything else 0) and
 * the log2 discount: DCG@k = Σ_{i ≤ k} rel_i / log2(i + 1), divided by the DCG
 * of the ideal ranking, which puts all `relevantCount` correct ids first
 * (trec_eval's `ndcg_cut`). 0 when the query has no correct id. Relevance is
 * correctness, not topic: a buggy copy of the query's own task has gain 0, so
 * with one correct id nDCG@1 = exec@1.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(ndcg_at_k([false, true], 2, 1), 1 / Math.log2(3)); // ≈ 0.631
 * ```
 */
export function ndcg_at_k(relevant: readonly boolean[], k: number, relevantCount: number): number {
  const ideal = idcg(k, relevantCount);
  if (ideal === 0) return 0;
  let dcg = 0;
  const n = Math.min(k, relevant.length);
  for (let i = 0; i < n; i++) if (relevant[i]) dcg += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

function idcg(k: number, relevantCount: number): number {
  let s = 0;
  for (let i = 0; i < Math.min(k, relevantCount); i++) s += 1 / Math.log2(i + 2);
  return s;
}

/**
 * The exec–nDCG gap at k: exec@k − nDCG@k (never negative, as the paper
 * reports it). nDCG gives partial credit to a
 * correct snippet found below rank 1, exec@k does not discount; a large gap
 * means the correct code is found but not first.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(exec_ndcg_gap([false, true], 2, 1), 1 - 1 / Math.log2(3)); // ≈ 0.369
 * ```
 */
export function exec_ndcg_gap(
  relevant: readonly boolean[],
  k: number,
  relevantCount: number,
): number {
  return exec_at_k(relevant, k) - ndcg_at_k(relevant, k, relevantCount);
}

/** Registry entry of nDCG@k. */
export const NDCG_METRIC: RankingsMetric = {
  name: "ndcg",
  at: "each_k",
  label: "nDCG@k",
  description: "nDCG@k with gain 1 for a correct snippet only (so nDCG@1 = exec@1).",
  better: "higher",
  leaderboard: true,
  recomputable: true,
  value: (q, k) => ndcg_at_k(q.relevant, k, q.relevantCount),
};

/** Registry entry of the exec–nDCG gap at k. */
export const GAP_METRIC: RankingsMetric = {
  name: "gap",
  at: "each_k",
  label: "gap@k",
  description: "exec@k − nDCG@k: credit for a correct snippet found, but not first.",
  better: "lower",
  leaderboard: true,
  recomputable: true,
  value: (q, k) => exec_ndcg_gap(q.relevant, k, q.relevantCount),
};
