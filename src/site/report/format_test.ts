import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fmt, fmtCI, fmtP, fmtPct, stars } from "./format.ts";

Deno.test("fmt rounds to three decimals and marks missing values", () => {
  assertEquals([fmt(1 / 3), fmt(1), fmt(null), fmt(Number.NaN)], ["0.333", "1.000", "–", "–"]);
});

Deno.test("fmtCI shows the interval only when both bounds exist", () => {
  assertEquals(fmtCI(0.5, 0.25, 0.75), "0.500 [0.250, 0.750]");
  assertEquals(fmtCI(0.5, null, 0.75), "0.500");
});

Deno.test("fmtPct, fmtP and stars", () => {
  assertEquals(fmtPct(0.915), "91.5%");
  assertEquals([fmtP(0.0312), fmtP(0.0004), fmtP(1)], ["0.0312", "< 0.001", "1"]);
  assertEquals([stars(0.0001), stars(0.004), stars(0.04), stars(0.2), stars(null)], [
    "***",
    "**",
    "*",
    "",
    "",
  ]);
});
