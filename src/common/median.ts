/**
 * The middle of `xs` (the upper of the two middle values for an even count),
 * without changing `xs`; NaN when empty.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { median } from "./median.ts";
 * strictEqual(median([3, 1, 2]), 2);
 * strictEqual(median([4, 1, 3, 2]), 3);
 * ```
 */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
}
