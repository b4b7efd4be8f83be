import { ok } from "node:assert/strict";
import { bootstrapWindow, inWindow } from "./bootstrap_tolerance.ts";
import { xoshiro128ss } from "../stats/rng.ts";

Deno.test("the window spans ranks pB ± 3·√2·√(Bp(1−p)) of our replicates", () => {
  const sorted = Float64Array.from({ length: 5000 }, (_, i) => i / 5000);
  const w = bootstrapWindow(sorted, 0.025, 0.025, 0);
  // 125 ± 46.8 ranks → replicates 78 and 172.
  ok(Math.abs(w.low - 78 / 5000) < 1e-12, `low ${w.low}`);
  ok(Math.abs(w.high - 172 / 5000) < 1e-12, `high ${w.high}`);
  ok(inWindow(w, 0.02) && inWindow(w, 0.034));
  ok(!inWindow(w, 0.01) && !inWindow(w, 0.04));
});

Deno.test("an independent generator's percentile falls inside the window", () => {
  // Two bootstraps of the same 200 values with different seeds: their 2.5 %
  // points differ by Monte Carlo noise only, which the window must absorb.
  const data = Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? 1 : 0) + (i % 3) * 0.1);
  const boot = (seed: number) => {
    const next = xoshiro128ss(seed);
    const out = new Float64Array(5000);
    for (let b = 0; b < 5000; b++) {
      let s = 0;
      for (let i = 0; i < data.length; i++) s += data[Math.floor(next() / 2 ** 32 * data.length)];
      out[b] = s / data.length;
    }
    return out.sort();
  };
  const ours = boot(1);
  for (const seed of [2, 3, 4, 5]) {
    const theirs = boot(seed);
    for (const p of [0.025, 0.975]) {
      const w = bootstrapWindow(ours, p, ours[Math.round(p * 5000)], 0);
      ok(inWindow(w, theirs[Math.round(p * 5000)]), `seed ${seed}, p ${p}`);
    }
  }
});
