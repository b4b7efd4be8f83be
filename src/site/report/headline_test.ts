import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { configShares } from "./headline.ts";

const misses = [{ config: "a", misses: 4, own_share: 0.75 }, {
  config: "b",
  misses: 2,
  own_share: 1,
}];
const below = [{ config: "a", queries: 10, share: 0.3 }, { config: "b", queries: 10, share: 0.5 }];

Deno.test("configShares prefers the stats stage's aggregates", () => {
  const shares = [
    { config: "a", metric: "miss_own_distractor", value: 0.8, ci_low: 0.5, ci_high: 1, n: 5 },
    { config: "a", metric: "below_distractor", value: 0.35, ci_low: 0.1, ci_high: 0.6, n: 10 },
  ];
  const [a, b] = configShares(shares, misses, below);
  assertEquals(a, {
    config: "a",
    own: { value: 0.8, low: 0.5, high: 1, n: 5 },
    below: { value: 0.35, low: 0.1, high: 0.6, n: 10 },
  });
  // b has no aggregates: counted from the rankings, without an interval.
  assertEquals(b, {
    config: "b",
    own: { value: 1, low: null, high: null, n: 2 },
    below: { value: 0.5, low: null, high: null, n: 10 },
  });
});
