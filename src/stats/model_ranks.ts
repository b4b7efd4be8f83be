import { METRIC_REGISTRY } from "../score/metrics/metric_registry.ts";
import { percentileInterval } from "./bootstrap.ts";

/** One config's bootstrap means: the point value and B resample means per series. */
export interface ConfigSamples {
  /** Point estimate per series (S values). */
  point: Float64Array;
  /** Resample means, row-major B × S. */
  samples: Float64Array;
}

/** One row of `model_ranks`. */
export interface ModelRankRow {
  config: string;
  metric: string;
  k: number;
  rank: number;
  rank_ci_low: number;
  rank_ci_high: number;
  n_configs: number;
}

/**
 * Where each config stands among the run's configs, per leaderboard metric
 * and k, and how sure that is. `rank` is 1 + the number of configs with a
 * strictly better mean (ties share a rank; "better" is the metric's own
 * direction in the registry). The 95% rank interval is taken over the same
 * bootstrap resamples as every other interval (`samples`, one shared set of
 * resampled queries): in each resample every config is ranked the same way,
 * and the interval is the 2.5% and 97.5% quantiles of a config's ranks,
 * rounded outward to whole ranks. Configs with no value at a (metric, k)
 * (a reranked config has no margins) are not ranked there.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { modelRanks } from "./model_ranks.ts";
 * // Two configs, one series (exec@1), three resamples: a is better in every one.
 * const at = (point: number, ...s: number[]) => ({
 *   point: Float64Array.of(point),
 *   samples: Float64Array.from(s),
 * });
 * const rows = modelRanks(
 *   new Map([["a", at(0.5, 0.5, 0.6, 0.4)], ["b", at(0.1, 0.1, 0.2, 0.3)]]),
 *   [{ metric: "exec", k: 1 }],
 *   3,
 * );
 * deepStrictEqual(rows.map((r) => [r.config, r.rank, r.rank_ci_low, r.rank_ci_high]), [
 *   ["a", 1, 1, 1],
 *   ["b", 2, 2, 2],
 * ]);
 * ```
 */
export function modelRanks(
  configs: ReadonlyMap<string, ConfigSamples>,
  series: readonly { metric: string; k: number }[],
  B: number,
): ModelRankRow[] {
  const better = new Map(
    METRIC_REGISTRY.filter((m) => m.leaderboard).map((m) => [m.name, m.better]),
  );
  const S = series.length;
  const names = [...configs.keys()];
  const rows: ModelRankRow[] = [];
  series.forEach(({ metric, k }, s) => {
    const direction = better.get(metric);
    if (direction === undefined) return;
    const sign = direction === "higher" ? 1 : -1;
    const ranked = names.filter((c) => !Number.isNaN(configs.get(c)!.point[s]));
    const C = ranked.length;
    // This series' resample means, config-major, signed so that larger is better.
    const v = new Float64Array(C * B);
    ranked.forEach((c, i) => {
      const samples = configs.get(c)!.samples;
      for (let b = 0; b < B; b++) v[i * B + b] = sign * samples[b * S + s];
    });
    const point = ranked.map((c) => sign * configs.get(c)!.point[s]);
    const ranks = new Float64Array(B);
    ranked.forEach((config, i) => {
      for (let b = 0; b < B; b++) {
        const mine = v[i * B + b];
        let r = 1;
        for (let j = 0; j < C; j++) if (v[j * B + b] > mine) r++;
        ranks[b] = r;
      }
      const [lo, hi] = percentileInterval(ranks);
      rows.push({
        config,
        metric,
        k,
        rank: 1 + point.filter((p) => p > point[i]).length,
        rank_ci_low: Math.floor(lo),
        rank_ci_high: Math.ceil(hi),
        n_configs: C,
      });
    });
  });
  return rows;
}
