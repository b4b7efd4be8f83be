/** The 2×2 table of two systems' binary outcomes over the same queries. */
export interface McNemarTable {
  /** Queries only system A gets right. */
  a_only: number;
  /** Queries only system B gets right. */
  b_only: number;
  both: number;
  neither: number;
}

/**
 * Count the paired outcomes of two systems (values 0/1 per query, same order).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   mcnemar_table([1, 1, 0, 0], [1, 0, 1, 0]),
 *   { a_only: 1, b_only: 1, both: 1, neither: 1 },
 * );
 * ```
 */
export function mcnemar_table(a: ArrayLike<number>, b: ArrayLike<number>): McNemarTable {
  if (a.length !== b.length) throw new Error(`mcnemar_table: ${a.length} vs ${b.length} outcomes`);
  const t = { a_only: 0, b_only: 0, both: 0, neither: 0 };
  for (let i = 0; i < a.length; i++) {
    const x = a[i] === 1, y = b[i] === 1;
    if (x && y) t.both++;
    else if (x) t.a_only++;
    else if (y) t.b_only++;
    else t.neither++;
  }
  return t;
}

/**
 * Exact two-sided McNemar p-value: under the null each discordant query is a
 * fair coin, so with n = b + c discordant pairs p = min(1, 2 · P(X ≤ min(b, c)))
 * for X ~ Binomial(n, ½). The binomial terms are built in log space
 * (log C(n, i+1) = log C(n, i) + log(n − i) − log(i + 1)) and summed with
 * log-sum-exp, so thousands of discordant pairs neither overflow nor underflow.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(mcnemar_exact(47, 66).toFixed(4), "0.0900");
 * ```
 */
export function mcnemar_exact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new Error(`mcnemar_exact: counts must be non-negative integers, got ${b}, ${c}`);
  }
  const n = b + c;
  if (n === 0 || b === c) return 1;
  const m = Math.min(b, c);
  const logs: number[] = [];
  let logC = 0;
  for (let i = 0; i <= m; i++) {
    logs.push(logC);
    logC += Math.log(n - i) - Math.log(i + 1);
  }
  const top = Math.max(...logs);
  let s = 0;
  for (const l of logs) s += Math.exp(l - top);
  const logTail = top + Math.log(s) - n * Math.LN2;
  return Math.min(1, 2 * Math.exp(logTail));
}
