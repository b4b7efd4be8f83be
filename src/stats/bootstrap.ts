import { quantile } from "simple-statistics";
import { below, xoshiro128ss } from "../common/rng.ts";
import { groupedSums } from "./grouped_sums.ts";
import type { Grouping } from "./grouping.ts";

/** The paper's bootstrap settings. */
export const BOOTSTRAP_RESAMPLES = 5000;
export const BOOTSTRAP_SEED = 20260510;

/**
 * How many times each query is drawn in each of B resamples of n queries
 * (row-major B × n). Resample b draws n indices with replacement, each
 * `below(next(), n)` from one xoshiro128** stream seeded with `seed`, in order
 * b = 0, 1, …; the counts are generated once and shared by every config,
 * metric and pair, which is what makes the pairwise intervals paired.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const counts = resampleCounts(939, 50, 20260510); // 50 resamples of 939 queries
 * strictEqual(counts.length, 50 * 939);
 * strictEqual(counts.subarray(0, 939).reduce((a, b) => a + b, 0), 939); // each resample draws 939
 * ```
 */
export function resampleCounts(n: number, B: number, seed: number): Uint32Array {
  const next = xoshiro128ss(seed);
  const counts = new Uint32Array(B * n);
  for (let b = 0; b < B; b++) {
    const row = b * n;
    for (let i = 0; i < n; i++) counts[row + below(next(), n)]++;
  }
  return counts;
}

/**
 * Resample sums of the columns of a query-major matrix `m` (n × C), per group
 * of each grouping: `out[j][(b * G_j + g) * C + c] = Σ_{i in group g} counts[b, i] · m[i, c]`.
 * Typed arrays, one pass over the queries per resample for all groupings
 * (skipping queries not drawn), accumulating into a small buffer that stays
 * in L1.
 */
export function resampleGroupSums(
  m: Float64Array,
  C: number,
  counts: Uint32Array,
  n: number,
  B: number,
  groupings: readonly Grouping[],
): Float64Array[] {
  if (m.length !== n * C) throw new Error(`resampleGroupSums: matrix is not ${n}×${C}`);
  const offsets: number[] = [];
  let width = 0;
  for (const g of groupings) {
    offsets.push(width);
    width += g.G * C;
  }
  const acc = new Float64Array(width);
  const outs = groupings.map((g) => new Float64Array(B * g.G * C));
  // Per query, the accumulator offsets of its group in each grouping.
  const J = groupings.length;
  const at = new Int32Array(n * J);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < J; j++) at[i * J + j] = offsets[j] + groupings[j].group[i] * C;
  }
  for (let b = 0; b < B; b++) {
    acc.fill(0);
    const row = b * n;
    for (let i = 0; i < n; i++) {
      const c = counts[row + i];
      if (c === 0) continue;
      const r = i * C;
      for (let j = 0; j < J; j++) {
        const o = at[i * J + j];
        for (let s = 0; s < C; s++) acc[o + s] += c * m[r + s];
      }
    }
    for (let j = 0; j < J; j++) {
      const size = groupings[j].G * C;
      outs[j].set(acc.subarray(offsets[j], offsets[j] + size), b * size);
    }
  }
  return outs;
}

/** Point estimates and bootstrap means of several per-query series, per group. */
export interface BootstrapResult {
  /** Series count. */
  S: number;
  /** Group count. */
  G: number;
  /** Mean over the queries where the series is defined, per group: `point[g * S + s]`. */
  point: Float64Array;
  /** How many queries define each series, per group: `n[g * S + s]`. */
  n: Int32Array;
  /** Resample means, `samples[(b * G + g) * S + s]` (NaN when no drawn query defines it). */
  samples: Float64Array;
}

/** Computes resample sums for the overall grouping and each grouping (see {@link resampler}). */
export interface Resampler {
  n: number;
  B: number;
  /** The overall grouping (one group) first, then the caller's. */
  groupings: Grouping[];
  /** Resample sums of a query-major n × C matrix, per grouping: B × G × C. */
  sums(m: Float64Array, C: number): Float64Array[];
}

/**
 * A {@link Resampler} over shared counts: the float64 SIMD kernel by default
 * (grouped_sums.ts), or the plain loop of {@link resampleGroupSums}
 * (`engine: "js"`, the reference the tests compare against).
 */
export function resampler(
  counts: Uint32Array,
  n: number,
  B: number,
  groupings: readonly Grouping[] = [],
  engine: "wasm" | "js" = "wasm",
): Resampler {
  const all: Grouping[] = [{ group: new Int32Array(n), G: 1 }, ...groupings];
  // With groupings, the overall sums are the sums of the first grouping's
  // groups (a partition), which saves a pass over the data.
  const own = groupings.length > 0 ? [...groupings] : all;
  const sums = engine === "js"
    ? (m: Float64Array, C: number) => resampleGroupSums(m, C, counts, n, B, own)
    : ((g) => (m: Float64Array, C: number) => g.sums(m, C))(groupedSums(counts, n, B, own));
  return {
    n,
    B,
    groupings: all,
    sums(m, C) {
      const parts = sums(m, C);
      if (own === all) return parts;
      const G = own[0].G, first = parts[0];
      const overall = new Float64Array(B * C);
      for (let b = 0; b < B; b++) {
        for (let g = 0; g < G; g++) {
          const src = (b * G + g) * C;
          for (let c = 0; c < C; c++) overall[b * C + c] += first[src + c];
        }
      }
      return [overall, ...parts];
    },
  };
}

/**
 * Bootstrap the means of per-query series (NaN = not defined for that query,
 * e.g. miss attribution on a hit). A series' resample mean is the sum of its
 * drawn values over the number of drawn queries that define it (a ratio
 * estimator), so series with gaps share the same resamples as the others.
 * Returns one result per grouping of the resampler: overall first, then each
 * grouping with its own means per group, all from the same resamples.
 */
export function bootstrapMeans(
  series: readonly Float64Array[],
  r: Resampler,
): BootstrapResult[] {
  const { n, B } = r;
  const S = series.length;
  // Columns: each series with absent values as 0, then one presence column
  // per distinct presence pattern (complete series share the all-ones column).
  const patterns = new Map<string, number>();
  const weightCol: number[] = [];
  const presence: Uint8Array[] = [];
  for (const v of series) {
    if (v.length !== n) {
      throw new Error(`bootstrapMeans: series of ${v.length} values, expected ${n}`);
    }
    const p = Uint8Array.from(v, (x) => (Number.isNaN(x) ? 0 : 1));
    const key = p.join("");
    let col = patterns.get(key);
    if (col === undefined) {
      col = S + presence.length;
      patterns.set(key, col);
      presence.push(p);
    }
    weightCol.push(col);
  }
  const C = S + presence.length;
  const m = new Float64Array(n * C);
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < S; s++) {
      const x = series[s][i];
      m[i * C + s] = Number.isNaN(x) ? 0 : x;
    }
    for (let p = 0; p < presence.length; p++) m[i * C + S + p] = presence[p][i];
  }
  const ones = new Uint32Array(n).fill(1);
  const full = resampleGroupSums(m, C, ones, n, 1, r.groupings);
  const sums = r.sums(m, C);
  return r.groupings.map(({ G }, j) => {
    const point = new Float64Array(G * S), nDefined = new Int32Array(G * S);
    const samples = new Float64Array(B * G * S);
    for (let g = 0; g < G; g++) {
      for (let s = 0; s < S; s++) {
        const w = full[j][g * C + weightCol[s]];
        point[g * S + s] = w > 0 ? full[j][g * C + s] / w : NaN;
        nDefined[g * S + s] = w;
      }
    }
    const sj = sums[j];
    for (let b = 0; b < B; b++) {
      for (let g = 0; g < G; g++) {
        const src = (b * G + g) * C, dst = (b * G + g) * S;
        for (let s = 0; s < S; s++) {
          const w = sj[src + weightCol[s]];
          samples[dst + s] = w > 0 ? sj[src + s] / w : NaN;
        }
      }
    }
    return { S, G, point, n: nDefined, samples };
  });
}

/**
 * Percentile bootstrap interval at `level` (default 95%): the (1 − level)/2
 * and (1 + level)/2 quantiles of the resample statistics, by linear
 * interpolation (type 7, numpy's default) via simple-statistics. NaN samples
 * (resamples where the statistic is undefined) are left out.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(percentileInterval(Float64Array.from({ length: 101 }, (_, i) => i)), [2.5, 97.5]);
 * ```
 */
export function percentileInterval(
  samples: ArrayLike<number>,
  level = 0.95,
): [number, number] {
  const kept = new Float64Array(samples.length);
  let m = 0;
  for (let i = 0; i < samples.length; i++) if (!Number.isNaN(samples[i])) kept[m++] = samples[i];
  if (m === 0) return [NaN, NaN];
  // simple-statistics selects on a copy; typed arrays keep that copy cheap.
  // Rounded so 95% asks for exactly the 0.025 and 0.975 quantiles.
  const tail = Number(((1 - level) / 2).toPrecision(12));
  const [lo, hi] = quantile(kept.subarray(0, m) as unknown as number[], [
    tail,
    1 - tail,
  ]) as number[];
  return [lo, hi];
}
