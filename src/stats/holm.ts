/**
 * Holm–Bonferroni step-down adjusted p-values: sort the m p-values ascending,
 * multiply the i-th smallest (1-based) by m − i + 1, carry the running maximum
 * so adjusted values never decrease, cap at 1, and return them in the input
 * order. Rejecting adjusted p < α controls the family-wise error rate at α.
 * Nulls (no test) pass through and do not count towards m.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(holm_bonferroni([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06]);
 * ```
 */
export function holm_bonferroni(p: readonly (number | null)[]): (number | null)[] {
  const order = p
    .map((v, i) => [v, i] as const)
    .filter((e): e is readonly [number, number] => e[0] !== null && !Number.isNaN(e[0]))
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const m = order.length;
  const out: (number | null)[] = p.map(() => null);
  let running = 0;
  order.forEach(([v, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * v));
    out[i] = running;
  });
  return out;
}
