/**
 * How far a bootstrap percentile computed with another generator may
 * legitimately fall from ours.
 *
 * Two bootstraps of the same data with different random generators give
 * different percentiles; the difference is Monte Carlo noise, not an error.
 * The p-quantile of B replicates is (about) the order statistic of rank pB,
 * and that rank varies between runs with standard deviation
 * s = √(B·p·(1−p)) ranks; the difference of two independent runs has
 * standard deviation √2·s. So a released endpoint is accepted when it lies
 * within our own replicates' range between ranks pB ± 3·√2·s (a 3-sigma band
 * on the rank, read off our sorted replicates, so it adapts to the spread and
 * the discreteness of the statistic), widened by the released rounding.
 *
 * For B = 5000 and p = 0.025 that is ranks 125 ± 47, i.e. our 1.56 % to
 * 3.44 % replicate quantiles.
 */
export interface BootstrapWindow {
  /** Lowest and highest accepted value. */
  low: number;
  high: number;
  /** The larger distance from our own percentile to either end (for the audit table). */
  halfWidth: number;
}

/** Sigmas of rank noise accepted (on the difference of two independent bootstraps). */
export const RANK_SIGMAS = 3;

/**
 * The accepted window for a released p-quantile, given our sorted bootstrap
 * replicates, our own estimate of that quantile and the released rounding
 * tolerance.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const sorted = Float64Array.from({ length: 5000 }, (_, i) => i / 5000);
 * const w = bootstrapWindow(sorted, 0.025, 0.025, 0);
 * strictEqual(w.low, 78 / 5000); // ≈ 0.0156
 * strictEqual(w.high, 172 / 5000); // ≈ 0.0344
 * ```
 */
export function bootstrapWindow(
  sorted: ArrayLike<number>,
  p: number,
  ours: number,
  rounding: number,
): BootstrapWindow {
  const b = sorted.length;
  if (b === 0) throw new Error("bootstrapWindow: no replicates");
  const spread = RANK_SIGMAS * Math.SQRT2 * Math.sqrt(b * p * (1 - p));
  const lo = Math.max(0, Math.floor(p * b - spread));
  const hi = Math.min(b - 1, Math.ceil(p * b + spread));
  const low = Math.min(sorted[lo], ours) - rounding;
  const high = Math.max(sorted[hi], ours) + rounding;
  return { low, high, halfWidth: Math.max(ours - low, high - ours) };
}

/** Whether a released value lies in the window. */
export function inWindow(w: BootstrapWindow, released: number): boolean {
  return released >= w.low && released <= w.high;
}
