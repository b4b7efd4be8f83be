/**
 * Every retrieval metric of the paper, each defined once as a pure function
 * of a ranking's relevance flags (correct = one of the query's correct ids),
 * and the registry that lists them with their metadata (registry.ts).
 */
export { exec_at_k, expected_exec_at_1 } from "./exec_at_k.ts";
export { precision_at_k } from "./precision_at_k.ts";
export { exec_ndcg_gap, ndcg_at_k } from "./ndcg_at_k.ts";
export { mrr, reciprocal_rank, reciprocal_rank_at_k } from "./mrr.ts";
export {
  canonical_below_distractor,
  canonical_margin,
  outrank_share_by_bug_type,
  rank1_outcome,
  type Rank1Outcome,
} from "./distractor_diagnostics.ts";
export { top_tie } from "./top_tie.ts";
export {
  evaluateMetrics,
  METRIC_REGISTRY,
  metricLabel,
  metricNames,
  type MetricPoint,
  recomputableMetrics,
  recomputableNames,
} from "./registry.ts";
export type {
  MetricEntry,
  MetricValue,
  RankedQuery,
  RankingsMetric,
  ScoredDistractor,
  ScoredQuery,
  ScoresMetric,
} from "./metric.ts";
