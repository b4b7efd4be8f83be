/**
 * Statistics over per-query metrics: bootstrap intervals (shared seeded
 * resamples), paired differences, exact McNemar and Holm–Bonferroni. The
 * stage writes `metrics`, `breakdowns` and `pairwise`.
 */
export {
  computeStats,
  MCNEMAR_METRICS,
  runStatsStage,
  type StatsStageOptions,
  type StatsStageResult,
} from "./stage.ts";
export {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  bootstrapMeans,
  percentileInterval,
  resampleCounts,
  resampler,
} from "./bootstrap.ts";
export { mcnemar_exact, mcnemar_table, type McNemarTable } from "./mcnemar.ts";
export { holm_bonferroni } from "./holm.ts";
export { below, splitmix64, xoshiro128ss } from "./rng.ts";
export { BREAKDOWNS } from "../tables/schema.ts";
export {
  checkMetricsAgainstRankings,
  RECOMPUTABLE,
  recomputeMetricsFromRankings,
} from "./recompute.ts";
export { readPerQueryMatrix } from "./per_query_matrix.ts";
