/**
 * How precisely a group of released numbers was written, and so how close a
 * recomputed number must be to "match exactly to the released precision".
 *
 * JSON keeps no trailing zeros, so the precision of one number is unknown
 * (is `0.5` exact, or rounded to one decimal?). A group of numbers written
 * the same way (say every aggregate metric of the results files) shows it:
 * the most decimals any of them has is the rounding, and a number with 15 or
 * more significant digits means the group was written in full.
 */
export interface ReleasedPrecision {
  /** Decimals the group was rounded to, or null when written in full. */
  decimals: number | null;
}

/** Relative tolerance for numbers written in full: only summation order may differ. */
export const FULL_PRECISION_RELATIVE = 1e-9;

/**
 * The precision of a group of released numbers.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(releasedPrecision([0.5, 0.3333, 1]), { decimals: 4 });
 * deepStrictEqual(releasedPrecision([0.5, 1 / 3]), { decimals: null });
 * ```
 */
export function releasedPrecision(values: Iterable<number>): ReleasedPrecision {
  let decimals = 0;
  for (const v of values) {
    const { digits, places } = shortestDigits(v);
    if (digits >= 15) return { decimals: null };
    decimals = Math.max(decimals, places);
  }
  return { decimals };
}

/**
 * Absolute tolerance for comparing a released number with a recomputed one:
 * half a unit in the last released decimal when the group was rounded (plus
 * a hair for binary floating point), else a relative 1e-9 of the larger
 * magnitude (so tiny p-values are compared relatively, not waved through).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(toleranceFor({ decimals: 4 }, 0.3333, 1 / 3), 0.00005 + 1e-12);
 * ```
 */
export function toleranceFor(p: ReleasedPrecision, released: number, recomputed: number): number {
  if (p.decimals !== null) return 0.5 * 10 ** -p.decimals + 1e-12;
  return FULL_PRECISION_RELATIVE * Math.max(Math.abs(released), Math.abs(recomputed)) + 1e-300;
}

/** Significant digits and decimal places of a number's shortest round-trip form. */
function shortestDigits(v: number): { digits: number; places: number } {
  const [mantissa, exp] = Math.abs(v).toExponential().split("e");
  const digits = mantissa.replace(".", "").replace(/^0+/, "").length || 1;
  const fraction = mantissa.includes(".") ? mantissa.split(".")[1].length : 0;
  return { digits, places: Math.max(0, fraction - Number(exp)) };
}

/**
 * The most significant digits any number of a group is written with, or
 * null for a group of zeros. p-values are often rounded to significant
 * digits (0.08995, 1.2346e-7) rather than to fixed decimals, which
 * {@link releasedPrecision} alone would read as one very fine rounding.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(significantDigits([0.08995, 0.5, 1.2346e-7]), 5);
 * ```
 */
export function significantDigits(values: Iterable<number>): number | null {
  let digits: number | null = null;
  for (const v of values) {
    if (v === 0) continue;
    const d = Math.abs(v).toExponential().split("e")[0].replace(".", "").replace(/0+$/, "").length;
    digits = Math.max(digits ?? 0, d);
  }
  return digits;
}

/**
 * Tolerance for a number of a group that may be rounded either to fixed
 * decimals or to significant digits: the wider of half a unit in the last
 * decimal ({@link toleranceFor}) and half a unit in the last significant
 * digit of the released value.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const t = pValueTolerance({ decimals: 9 }, 5, 0.50781, 0.5078125);
 * strictEqual(t, 0.5 * 10 ** -5 + 1e-15); // half a unit in the 5th significant digit
 * ```
 */
export function pValueTolerance(
  p: ReleasedPrecision,
  digits: number | null,
  released: number,
  recomputed: number,
): number {
  const fixed = toleranceFor(p, released, recomputed);
  if (digits === null || released === 0) return fixed;
  const exponent = Math.floor(Math.log10(Math.abs(released)));
  return Math.max(fixed, 0.5 * 10 ** (exponent - digits + 1) + 1e-15);
}
