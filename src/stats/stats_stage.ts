import { readTableRows, type RowOf, TableNotFound, writeTable } from "../io/arrow_table.ts";
import { BOARD_ENTRIES, LEADERBOARD } from "../tables/board.ts";
import { leaderboardRows, SEPARABLE_P } from "./leaderboard_table.ts";
import { tablePath } from "../io/paths.ts";
import { progress } from "../io/progress.ts";
import { BREAKDOWNS, METRICS, MODEL_RANKS, PAIRWISE } from "../tables/schema.ts";
import { type ModelRankRow, modelRanks } from "./model_ranks.ts";
import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  bootstrapMeans,
  percentileInterval,
  resampleCounts,
  resampler,
} from "./bootstrap.ts";
import { holm_bonferroni } from "./holm.ts";
import { mcnemar_exact, mcnemar_table } from "./mcnemar.ts";
import { type PerQueryMatrix, readPerQueryMatrix } from "./per_query_matrix.ts";

/** Metrics whose per-query values are 0/1 outcomes tested with exact McNemar. */
export const MCNEMAR_METRICS = new Set(["exec"]);

/** Options of {@link runStatsStage}. */
export interface StatsStageOptions {
  /** Cutoffs to keep (default: every k in per_query). */
  ks?: number[];
  /** Bootstrap resamples (default 5,000). */
  bootstrap?: number;
  /** Seed of the resamples (default 20260510). */
  seed?: number;
  quiet?: boolean;
}

/** What {@link runStatsStage} wrote. */
export interface StatsStageResult {
  configs: string[];
  queries: number;
  series: number;
  pairs: number;
  metrics: string;
  pairwise: string;
  breakdowns: string;
  seconds: number;
}

/** Rows of the four statistics tables. */
export interface StatsTables {
  metrics: RowOf<typeof METRICS>[];
  pairwise: RowOf<typeof PAIRWISE>[];
  breakdowns: RowOf<typeof BREAKDOWNS>[];
  model_ranks: ModelRankRow[];
}

/**
 * Aggregate a {@link PerQueryMatrix}: per config and (metric, k) the mean
 * over queries with a 95% percentile bootstrap interval; the same per source
 * and per domain; and for every pair of configs (a before b by name) the
 * paired bootstrap interval of mean(a) − mean(b), plus for exec@k the McNemar
 * table, exact two-sided p and Holm–Bonferroni p over all pairs at that
 * (metric, k). One set of resample counts serves everything.
 */
export function computeStats(
  pq: PerQueryMatrix,
  options: { bootstrap?: number; seed?: number; quiet?: boolean; engine?: "wasm" | "js" } = {},
): StatsTables {
  const B = options.bootstrap ?? BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? BOOTSTRAP_SEED;
  const n = pq.queryIds.length, S = pq.series.length;
  const counts = resampleCounts(n, B, seed);
  const groupings = (["source", "domain"] as const).map((by) => {
    const labels = by === "source" ? pq.source : pq.domain;
    const names = [...new Set(labels)].sort();
    const index = new Map(names.map((g, i) => [g, i]));
    return { by, names, G: names.length, group: Int32Array.from(labels, (l) => index.get(l)!) };
  });
  const engine = resampler(counts, n, B, groupings, options.engine);
  const metrics: RowOf<typeof METRICS>[] = [];
  const breakdowns: RowOf<typeof BREAKDOWNS>[] = [];
  const overall = new Map<string, { point: Float64Array; samples: Float64Array }>();
  const bar = progress("stats: bootstrap", pq.configs.length, { quiet: options.quiet });
  for (const config of pq.configs) {
    const v = pq.values.get(config)!;
    const series = pq.series.map((_, s) => v.subarray(s * n, (s + 1) * n));
    const [all, ...byGroup] = bootstrapMeans(series, engine);
    overall.set(config, { point: all.point, samples: all.samples });
    const column = new Float64Array(B);
    pq.series.forEach(({ metric, k }, s) => {
      for (let b = 0; b < B; b++) column[b] = all.samples[b * S + s];
      const [lo, hi] = percentileInterval(column);
      metrics.push({
        config,
        metric,
        k,
        value: all.point[s],
        ci_low: lo,
        ci_high: hi,
        n: all.n[s],
      });
    });
    groupings.forEach(({ by, names }, j) => {
      const r = byGroup[j], G = names.length;
      names.forEach((name, g) => {
        pq.series.forEach(({ metric, k }, s) => {
          if (r.n[g * S + s] === 0) return;
          for (let b = 0; b < B; b++) column[b] = r.samples[(b * G + g) * S + s];
          const [lo, hi] = percentileInterval(column);
          breakdowns.push({
            config,
            group_by: by,
            group: name,
            metric,
            k,
            value: r.point[g * S + s],
            ci_low: lo,
            ci_high: hi,
            n: r.n[g * S + s],
          });
        });
      });
    });
    bar.tick();
  }
  bar.done();

  const pairwise: RowOf<typeof PAIRWISE>[] = [];
  const delta = new Float64Array(B);
  pq.series.forEach(({ metric, k }, s) => {
    const family: RowOf<typeof PAIRWISE>[] = [];
    for (let i = 0; i < pq.configs.length; i++) {
      for (let j = i + 1; j < pq.configs.length; j++) {
        const a = pq.configs[i], b = pq.configs[j];
        const A = overall.get(a)!, Bc = overall.get(b)!;
        for (let r = 0; r < B; r++) delta[r] = A.samples[r * S + s] - Bc.samples[r * S + s];
        const [lo, hi] = percentileInterval(delta);
        const row: RowOf<typeof PAIRWISE> = {
          config_a: a,
          config_b: b,
          metric,
          k,
          a_rate: A.point[s],
          b_rate: Bc.point[s],
          delta: A.point[s] - Bc.point[s],
          ci_low: lo,
          ci_high: hi,
          // McNemar's counts and p: exec metrics only.
          a_only: null,
          b_only: null,
          both: null,
          neither: null,
          p_mcnemar: null,
          p_holm: null,
        };
        if (MCNEMAR_METRICS.has(metric)) {
          const va = pq.values.get(a)!.subarray(s * n, (s + 1) * n);
          const vb = pq.values.get(b)!.subarray(s * n, (s + 1) * n);
          const t = mcnemar_table(va, vb);
          Object.assign(row, t, { p_mcnemar: mcnemar_exact(t.a_only, t.b_only) });
        }
        family.push(row);
      }
    }
    const adjusted = holm_bonferroni(
      family.map((r) => r.p_mcnemar),
    );
    family.forEach((r, i) => {
      if (adjusted[i] !== null) r.p_holm = adjusted[i];
      pairwise.push(r);
    });
  });
  const model_ranks = modelRanks(overall, pq.series, B);
  return { metrics, pairwise, breakdowns, model_ranks };
}

/** The board stage's verified entries, or none when it wrote no table. */
async function boardEntries(): Promise<RowOf<typeof BOARD_ENTRIES>[]> {
  try {
    return await readTableRows(tablePath("board_entries"), BOARD_ENTRIES);
  } catch (e) {
    if (e instanceof TableNotFound) return [];
    throw e;
  }
}

/**
 * The stats stage: read `per_query.arrow` (plus `rerank_per_query.arrow`
 * when the rerank stage wrote it), write `metrics.arrow`,
 * `pairwise.arrow`, `breakdowns.arrow` and `model_ranks.arrow` (specs in
 * src/tables/schema.ts).
 * Deterministic: the same per_query, B and seed give byte-identical tables.
 */
export async function runStatsStage(options: StatsStageOptions = {}): Promise<StatsStageResult> {
  const t0 = performance.now();
  const B = options.bootstrap ?? BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? BOOTSTRAP_SEED;
  // The rerank stage's configs and the board's entries (when those stages
  // wrote rows) are configs like any other.
  const pq = await readPerQueryMatrix(tablePath("per_query"), options.ks, [
    tablePath("rerank_per_query"),
    tablePath("board_per_query"),
  ]);
  if (pq.configs.length === 0) throw new Error(`${tablePath("per_query")}: no rows`);
  const tables = computeStats(pq, { bootstrap: B, seed, quiet: options.quiet });
  const metadata = {
    bootstrap: String(B),
    seed: String(seed),
    rng: "xoshiro128** seeded by SplitMix64; index = floor(u32 * n / 2^32)",
    interval: "95% percentile bootstrap over queries, quantile type 7",
    mcnemar:
      "exact two-sided binomial on discordant pairs (exec only); Holm over all pairs per (metric, k)",
  };
  const metrics = await writeTable("metrics", tables.metrics, METRICS, { metadata });
  const pairwise = await writeTable("pairwise", tables.pairwise, PAIRWISE, { metadata });
  const breakdowns = await writeTable("breakdowns", tables.breakdowns, BREAKDOWNS, { metadata });
  await writeTable(
    "model_ranks",
    tables.model_ranks,
    MODEL_RANKS,
    { metadata: { ...metadata, rank: "1 + configs strictly better; interval rounded outward" } },
  );
  await writeTable(
    "leaderboard",
    leaderboardRows(tables.metrics, tables.model_ranks, tables.pairwise, await boardEntries()),
    LEADERBOARD,
    {
      metadata: {
        ...metadata,
        conservative_rank: "1 + models whose exec@1 lower bound is above this one's upper bound",
        separable: `exact McNemar at exec@1, Holm over every pair on the board, p < ${SEPARABLE_P}`,
      },
    },
  );
  return {
    configs: pq.configs,
    queries: pq.queryIds.length,
    series: pq.series.length,
    pairs: (pq.configs.length * (pq.configs.length - 1)) / 2,
    metrics,
    pairwise,
    breakdowns,
    seconds: (performance.now() - t0) / 1000,
  };
}
