import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { mcnemar_exact, mcnemar_table } from "./mcnemar.ts";
import { holm_bonferroni } from "./holm.ts";
import { below, xoshiro128ss } from "../common/rng.ts";
import { bootstrapMeans, percentileInterval, resampleCounts, resampler } from "./bootstrap.ts";
import { computeStats } from "./stats_stage.ts";

const close = (a: number, b: number, eps = 1e-12) => ok(Math.abs(a - b) <= eps, `${a} ≠ ${b}`);

Deno.test("mcnemar_exact matches exact binomial tails", () => {
  // Reference values: 2·Σ_{i≤min} C(n,i)/2^n with Python's exact integers (fractions.Fraction).
  close(mcnemar_exact(47, 66), 0.08995433294496465, 1e-12);
  close(mcnemar_exact(66, 47), 0.08995433294496465, 1e-12);
  close(mcnemar_exact(1, 4), 0.375); // 2 · (1 + 5) / 32
  close(mcnemar_exact(0, 5), 0.0625); // 2 / 32
  close(mcnemar_exact(1000, 1100), 0.030720707864242296, 1e-10);
  close(mcnemar_exact(400, 520) / 8.549170923883778e-05, 1, 1e-9);
  assertEquals(mcnemar_exact(0, 0), 1);
  assertEquals(mcnemar_exact(7, 7), 1);
  // 2 · 2^-1000 = 2^-999: no intermediate overflow or underflow in log space
  close(mcnemar_exact(0, 1000) / 2 ** -999, 1, 1e-9);
  close(mcnemar_exact(1, 1000) / (1002 * 2 ** -1000), 1, 1e-9);
  throws(() => mcnemar_exact(-1, 2));
});

Deno.test("mcnemar_table counts paired outcomes", () => {
  assertEquals(mcnemar_table([1, 1, 0, 0, 1], [1, 0, 1, 0, 0]), {
    a_only: 2,
    b_only: 1,
    both: 1,
    neither: 1,
  });
  throws(() => mcnemar_table([1], [1, 0]));
});

Deno.test("holm_bonferroni on a hand example", () => {
  // sorted 0.01 (×3 = 0.03), 0.03 (×2 = 0.06), 0.04 (×1 = 0.04 → running max 0.06)
  const adj = holm_bonferroni([0.01, 0.04, 0.03]);
  close(adj[0]!, 0.03);
  close(adj[1]!, 0.06);
  close(adj[2]!, 0.06);
  // nulls are skipped and do not count towards m; values cap at 1
  const withNull = holm_bonferroni([0.5, null, 0.2]);
  assertEquals(withNull[1], null);
  close(withNull[0]!, 0.5);
  close(withNull[2]!, 0.4);
  assertEquals(holm_bonferroni([0.6, 0.7]), [1, 1]);
});

Deno.test("xoshiro128** seeded by SplitMix64 matches a reference implementation", () => {
  // First outputs for seed 20260510 from an independent Python port of the published algorithms.
  const next = xoshiro128ss(20260510);
  assertEquals([next(), next(), next(), next(), next()], [
    1215388787,
    2824928154,
    3287777397,
    1401708218,
    272749929,
  ]);
  assertEquals(below(0, 939), 0);
  assertEquals(below(4294967295, 939), 938);
});

Deno.test("resample counts are deterministic per seed and sum to n", () => {
  const a = resampleCounts(50, 200, 20260510), b = resampleCounts(50, 200, 20260510);
  assertEquals(a, b);
  const c = resampleCounts(50, 200, 1);
  ok(a.some((v, i) => v !== c[i]));
  for (let r = 0; r < 200; r++) {
    let s = 0;
    for (let i = 0; i < 50; i++) s += a[r * 50 + i];
    assertEquals(s, 50);
  }
});

Deno.test("percentileInterval uses linear interpolation (type 7) and skips NaN", () => {
  assertEquals(percentileInterval(Float64Array.from({ length: 101 }, (_, i) => i)), [2.5, 97.5]);
  assertEquals(percentileInterval([NaN, 1, 1, NaN]), [1, 1]);
  assertEquals(percentileInterval([NaN]), [NaN, NaN]);
});

Deno.test("bootstrap: same seed, same interval; wasm sums equal the plain loop", () => {
  const n = 83, B = 400;
  const next = xoshiro128ss(7);
  const exec = Float64Array.from({ length: n }, () => (next() % 3 === 0 ? 1 : 0));
  const margin = Float64Array.from({ length: n }, () => next() / 4294967296 - 0.5);
  const partial = Float64Array.from(exec, (x, i) => (x === 1 ? NaN : i % 2));
  const group = Int32Array.from({ length: n }, (_, i) => i % 5);
  const run = (engine: "wasm" | "js", seed = 20260510) =>
    bootstrapMeans(
      [exec, margin, partial],
      resampler(resampleCounts(n, B, seed), n, B, [{ group, G: 5 }], engine),
    );
  const [w, wg] = run("wasm"), [j, jg] = run("js"), [w2] = run("wasm");
  assertEquals(w.samples, w2.samples);
  for (let i = 0; i < w.samples.length; i++) {
    ok(Number.isNaN(w.samples[i]) === Number.isNaN(j.samples[i]));
    if (!Number.isNaN(w.samples[i])) close(w.samples[i], j.samples[i], 1e-12);
  }
  for (let i = 0; i < wg.samples.length; i++) {
    if (!Number.isNaN(wg.samples[i])) close(wg.samples[i], jg.samples[i], 1e-12);
  }
  // point estimates: means over the defined values
  close(w.point[0], exec.reduce((a, b) => a + b, 0) / n);
  const defined = [...partial].filter((x) => !Number.isNaN(x));
  close(w.point[2], defined.reduce((a, b) => a + b, 0) / defined.length);
  assertEquals(w.n[2], defined.length);
  // group 0 holds queries 0, 5, 10, ...
  const g0 = [...exec].filter((_, i) => i % 5 === 0);
  close(wg.point[0], g0.reduce((a, b) => a + b, 0) / g0.length);
  // the interval brackets the point estimate and is reproducible
  const col = (r: typeof w, s: number) =>
    Float64Array.from({ length: B }, (_, b) => r.samples[b * 3 + s]);
  const [lo, hi] = percentileInterval(col(w, 0));
  ok(lo < w.point[0] && w.point[0] < hi);
  assertEquals(percentileInterval(col(w2, 0)), [lo, hi]);
  const [other] = run("wasm", 99);
  ok(percentileInterval(col(other, 0)).some((v, i) => v !== [lo, hi][i]));
});

Deno.test("model_ranks: each config's rank from the metrics, its interval from the shared resamples", () => {
  const n = 60, B = 300;
  const next = xoshiro128ss(11);
  // "best" passes every query, "mid" and "mid2" two thirds (not the same ones), "low" a tenth.
  const rate = (p: number) =>
    Float64Array.from({ length: n }, () => (next() % 1000 < p * 1000 ? 1 : 0));
  const values = new Map([
    ["best", Float64Array.from({ length: n }, () => 1)],
    ["mid", rate(0.66)],
    ["mid2", rate(0.66)],
    ["low", rate(0.1)],
  ]);
  const pq = {
    configs: [...values.keys()],
    queryIds: Array.from({ length: n }, (_, i) => `q${i}`),
    source: Array.from({ length: n }, () => "s"),
    domain: Array.from({ length: n }, () => "d"),
    series: [{ metric: "exec", k: 1 }],
    values,
  };
  const { metrics, model_ranks } = computeStats(pq, { bootstrap: B, seed: 3, quiet: true });
  const value = new Map(metrics.map((m) => [m.config as string, m.value as number]));
  for (const r of model_ranks) {
    assertEquals(r.metric, "exec");
    assertEquals(r.n_configs, 4);
    // Its rank: one more than the configs with a strictly higher exec@1.
    assertEquals(r.rank, 1 + [...value.values()].filter((v) => v > value.get(r.config)!).length);
    ok(r.rank_ci_low <= r.rank && r.rank <= r.rank_ci_high, JSON.stringify(r));
  }
  const by = new Map(model_ranks.map((r) => [r.config, r]));
  // Always first and always last: certain; the two middle ones cannot be told apart.
  assertEquals([by.get("best")!.rank_ci_low, by.get("best")!.rank_ci_high], [1, 1]);
  assertEquals([by.get("low")!.rank_ci_low, by.get("low")!.rank_ci_high], [4, 4]);
  assertEquals([by.get("mid")!.rank_ci_low, by.get("mid")!.rank_ci_high], [2, 3]);
  assertEquals([by.get("mid2")!.rank_ci_low, by.get("mid2")!.rank_ci_high], [2, 3]);
});
