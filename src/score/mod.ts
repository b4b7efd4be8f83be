/**
 * Scoring: similarity of every query with the whole pool (a WebAssembly SIMD
 * kernel for dense vectors, or onnxruntime's native GEMM with every score a
 * table reads re-scored by that kernel; the provider for sparse retrievers), full
 * rankings with a neutral seeded tie-break, and the per-query metrics. The
 * stage writes `rankings` and `per_query`.
 */
export {
  blockRowsFor,
  DEFAULT_KS,
  runScoreStage,
  SCORE_BLOCK_VALUES,
  type ScoreStageOptions,
  type ScoreStageResult,
} from "./stage.ts";
export {
  availableConfigs,
  type ConfigScorer,
  configScorer,
  type ConfigScores,
  embeddingPath,
  scoreMatrixFor,
} from "./score_matrix_for.ts";
export {
  type DenseRows,
  denseRowScorer,
  denseScoreMatrix,
  type DenseScoreOptions,
  l2Normalized,
  type ScoreMatrix,
  type ScorePath,
  type ScorePathChoice,
  scorePathFromEnv,
  type VectorBlock,
} from "./score_matrix.ts";
export { loadNativeGemm, type NativeGemm } from "./native_gemm.ts";
export {
  dotErrorBound,
  GemmBoundError,
  type RescorePlan,
  type TwoPathResult,
  twoPathScores,
} from "./two_path_scores.ts";
export { evaluationPlan } from "./evaluation_plan.ts";
export { type ExactScorer, exactScorer } from "./exact_rescore.ts";
export { dotScores, dotScoresParallel, relaxedSimdAvailable } from "./dot_kernel.ts";
export { type Pool, type QueryRanking, rankQuery } from "./rank_query.ts";
export { evaluateQuery, poolContext, RANKINGS_DEPTH } from "./evaluate_query.ts";
export { fnv1a32, TIE_SEED, tieKey } from "./tie_break.ts";
export { type Benchmark, checkBenchmark, readBenchmark } from "./benchmark.ts";
