/**
 * Number formatting shared by the pages, so every table and figure rounds the
 * same way and a test can predict exactly what a page shows.
 */

/**
 * A rate or score with three decimals; "–" for a missing value.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(fmt(1 / 3), "0.333");
 * ```
 */
export function fmt(x: number | null | undefined, digits = 3): string {
  return x == null || Number.isNaN(x) ? "–" : x.toFixed(digits);
}

/**
 * A value with its 95% interval, e.g. "0.333 [0.250, 0.417]".
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(fmtCI(0.5, 0.25, 0.75), "0.500 [0.250, 0.750]");
 * ```
 */
export function fmtCI(
  value: number | null | undefined,
  low: number | null | undefined,
  high: number | null | undefined,
): string {
  if (low == null || high == null) return fmt(value);
  return `${fmt(value)} [${fmt(low)}, ${fmt(high)}]`;
}

/**
 * A share as a percentage with one decimal, e.g. "91.5%".
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(fmtPct(0.915), "91.5%");
 * ```
 */
export function fmtPct(x: number | null | undefined): string {
  return x == null || Number.isNaN(x) ? "–" : `${(100 * x).toFixed(1)}%`;
}

/**
 * A p-value: three significant digits, "< 0.001" below that.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(fmtP(0.0312), "0.0312");
 * strictEqual(fmtP(0.00001), "< 0.001");
 * ```
 */
export function fmtP(p: number | null | undefined): string {
  if (p == null || Number.isNaN(p)) return "–";
  if (p < 0.001) return "< 0.001";
  return Number(p.toPrecision(3)).toString();
}

/** Significance marker at α = 0.05 (after Holm's correction when given adjusted p). */
export function stars(p: number | null | undefined): string {
  if (p == null) return "";
  return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

/**
 * A byte count as a reader says it (`12.3 MB`, `840 kB`, `512 B`; 1 kB = 1,000 B).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(fmtBytes(12_345_678), "12.3 MB");
 * strictEqual(fmtBytes(840_000), "840 kB");
 * ```
 */
export function fmtBytes(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "–";
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} B`;
}
