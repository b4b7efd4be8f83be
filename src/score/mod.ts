/**
 * Scoring: similarity of every query with the whole pool (a WebAssembly SIMD
 * kernel for dense vectors, the provider for sparse retrievers), full
 * rankings with a neutral seeded tie-break, and the per-query metrics. The
 * stage writes `rankings` and `per_query`.
 */
export {
  DEFAULT_KS,
  runScoreStage,
  type ScoreStageOptions,
  type ScoreStageResult,
} from "./stage.ts";
export {
  availableConfigs,
  type ConfigScores,
  embeddingPath,
  scoreMatrixFor,
} from "./score_matrix_for.ts";
export {
  denseScoreMatrix,
  l2Normalized,
  type ScoreMatrix,
  type VectorBlock,
} from "./score_matrix.ts";
export { dotScores, dotScoresParallel, relaxedSimdAvailable } from "./dot_kernel.ts";
export { type Pool, type QueryRanking, rankQuery } from "./rank_query.ts";
export { evaluateQuery, poolContext, RANKINGS_DEPTH } from "./evaluate_query.ts";
export { fnv1a32, TIE_SEED, tieKey } from "./tie_break.ts";
export { type Benchmark, checkBenchmark, readBenchmark } from "./benchmark.ts";
