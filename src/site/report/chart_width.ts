/**
 * A figure's width on a page `available` px wide: at most `max`, and never
 * below 560 px (or `max`, if smaller), so that on a phone the figure keeps its
 * labels and scrolls sideways (its cell is `overflow-x: auto`) instead of
 * squeezing them into each other.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(chartWidth(1100, 720), 720);
 * strictEqual(chartWidth(326, 720), 560);
 * strictEqual(chartWidth(326, 520), 520);
 * ```
 */
export function chartWidth(available: number, max: number): number {
  return Math.max(Math.min(MIN_CHART_WIDTH, max), Math.min(available, max));
}

/** The narrowest a figure is drawn (see {@link chartWidth}). */
export const MIN_CHART_WIDTH = 560;
