import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { releasedPrecision, toleranceFor } from "./released_precision.ts";

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
