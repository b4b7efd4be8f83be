import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  pValueTolerance,
  releasedPrecision,
  significantDigits,
  toleranceFor,
} from "./released_precision.ts";

Deno.test("the precision of a group is its longest decimal expansion", () => {
  assertEquals(releasedPrecision([0.5, 0.3333, 1, 0]), { decimals: 4 });
  assertEquals(releasedPrecision([0.5, 1]), { decimals: 1 });
  assertEquals(releasedPrecision([1e-5, 0.25]), { decimals: 5 });
  assertEquals(releasedPrecision([]), { decimals: 0 });
});

Deno.test("15 or more significant digits mean the group was written in full", () => {
  assertEquals(releasedPrecision([0.5, 1 / 3]), { decimals: null });
  assertEquals(releasedPrecision([0.1 + 0.2]), { decimals: null });
});

Deno.test("rounded groups tolerate half a unit, full ones a relative 1e-9", () => {
  const t4 = toleranceFor({ decimals: 4 }, 0.3333, 1 / 3);
  ok(t4 > 0.00005 && t4 < 0.0000501);
  ok(Math.abs(0.3333 - 1 / 3) <= t4);
  ok(Math.abs(0.3334 - 1 / 3) > t4);
  // Tiny p-values are compared relatively: 1e-30 vs 2e-30 is a mismatch.
  ok(toleranceFor({ decimals: null }, 1e-30, 2e-30) < 1e-30);
  ok(toleranceFor({ decimals: null }, 0.5, 0.5 + 1e-15) > 1e-15);
});

Deno.test("p-values rounded to significant digits are equal within their last digit", () => {
  const released = [0.50781, 0.012939, 0.17969, 1.2346e-7];
  const digits = significantDigits(released);
  assertEquals(digits, 5);
  const p = releasedPrecision(released);
  // 0.5078125 written as 0.50781: off by 2.5e-6, inside half a unit of the 5th digit.
  const tol = pValueTolerance(p, digits, 0.50781, 0.5078125);
  assertEquals(Math.abs(0.5078125 - 0.50781) <= tol, true);
  // A real difference in the 4th digit is not.
  assertEquals(Math.abs(0.5079 - 0.50781) <= pValueTolerance(p, digits, 0.50781, 0.5079), false);
  // Tiny p-values stay compared relatively.
  assertEquals(pValueTolerance(p, digits, 1.2346e-7, 1.23456e-7) < 1e-11, true);
});
