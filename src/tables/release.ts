import { type RowOf, tableSpec } from "../io/arrow_table.ts";

// The tables of a release run: the compare and release-oracle stages' comparisons
// of the kit with the ExecRetrieval release, and the `import --audit` tables.

/**
 * `paper_comparison`: every number the release reports for a system the kit
 * scored, beside the kit's own value from its run of the release profile.
 */
export const PAPER_COMPARISON = tableSpec({
  section: "utf8", // metric | interval | pairwise
  model: "utf8", // released model id (model A of a pair)
  config: "utf8", // the kit's config for it
  model_b: "utf8?", // pairwise only
  config_b: "utf8?",
  metric: "utf8", // the kit's family: exec | precision | ndcg | gap
  k: "int32",
  quantity: "utf8", // value | ci_low | ci_high | a_rate | b_rate | delta | a_only | b_only | both | neither | p_mcnemar
  released: "float64",
  kit: "float64?", // null when the kit has no such number
  difference: "float64?", // kit − released
  tolerance: "float64", // accepted |difference|
  equal: "bool?", // |difference| ≤ tolerance
  status: "utf8", // equal | differs | kit_own (the kit's own implementation: shown, not flagged) | missing
  flagged: "bool", // status is differs or missing
  locator: "utf8", // released file and key
});
/** One row of {@link PAPER_COMPARISON}. */
export type PaperComparisonRow = RowOf<typeof PAPER_COMPARISON>;

/**
 * `ranking_agreement`: per released system, how many queries get the same
 * top 10 from the kit as in the release.
 */
export const RANKING_AGREEMENT = tableSpec({
  model: "utf8",
  config: "utf8",
  queries: "int32",
  identical_top10: "int32",
  share_identical: "float64",
  same_rank1: "int32",
  first_differing_rank_min: "int32?", // null when every top 10 is identical
  kit_own: "bool",
});
/** One row of {@link RANKING_AGREEMENT}. */
export type RankingAgreementRow = RowOf<typeof RANKING_AGREEMENT>;

/** `ranking_differences`: each query whose kit top 10 differs from the released one. */
export const RANKING_DIFFERENCES = tableSpec({
  config: "utf8",
  query_id: "utf8",
  first_differing_rank: "int32",
  released_corpus_id: "utf8",
  kit_corpus_id: "utf8",
});
/** One row of {@link RANKING_DIFFERENCES}. */
export type RankingDifferenceRow = RowOf<typeof RANKING_DIFFERENCES>;

/**
 * `oracle_agreement`: one row per released snippet re-executed against its
 * query's suite, the release's verdict beside the kit's.
 */
export const ORACLE_AGREEMENT = tableSpec({
  query_id: "utf8", // the kit's query id (release/<query_id>)
  corpus_id: "utf8",
  label: "utf8", // correct | incorrect, as released
  bug_type: "utf8?", // null on canonicals
  tests: "int32",
  tests_agreeing: "int32", // tests whose released outcome equals the kit's (FAIL:<msg> read as FAIL)
  released_pass: "bool?", // null when the release's cache lacks the pair
  kit_pass: "bool",
  agree: "bool", // every test agrees
});
/** One row of {@link ORACLE_AGREEMENT}. */
export type OracleAgreementRow = RowOf<typeof ORACLE_AGREEMENT>;

/** `oracle_disagreements`: one row per test whose outcome differs, with both outcomes. */
export const ORACLE_DISAGREEMENTS = tableSpec({
  query_id: "utf8",
  corpus_id: "utf8",
  test_index: "int32",
  released: "utf8?", // as released; null when the cache lacks the pair
  kit: "utf8",
  runtime: "utf8",
});
/** One row of {@link ORACLE_DISAGREEMENTS}. */
export type OracleDisagreementRow = RowOf<typeof ORACLE_DISAGREEMENTS>;

/**
 * The `audit` table: one row per released number checked against the kit's
 * recomputation from the released rankings (and, in summary rows, the
 * re-execution and mutation comparisons).
 */
export const AUDIT = tableSpec({
  section: "utf8", // metrics | leaderboard | intervals | pairwise | executions | relevance | mutations
  subject: "utf8", // a model, a pair "A vs B", or "all"
  metric: "utf8", // released family: exec | precision | ndcg | exec_ndcg_gap | ...
  k: "int32", // 0 when the number has no cutoff
  quantity: "utf8", // what the number is: value, ci95_low, a_only, mcnemar_exact_p, ...
  released: "float64",
  recomputed: "float64?", // null when the kit cannot recompute it
  tolerance: "float64?", // accepted |released − recomputed|
  match: "bool?", // null when not recomputed
  locator: "utf8", // the released file and key the number comes from
});
/** One row of {@link AUDIT}. */
export type AuditRow = RowOf<typeof AUDIT>;

/** The `audit_executions` table: one row per (released snippet, test) re-executed. */
export const AUDIT_EXECUTIONS = tableSpec({
  query_id: "utf8",
  corpus_id: "utf8",
  label: "utf8",
  bug_type: "utf8?",
  test_index: "int32",
  released: "utf8?", // as released (FAIL:<msg> kept); null when the cache lacks the pair
  recomputed: "utf8", // the kit's sandbox outcome
  match: "bool", // released (FAIL:<msg> read as FAIL) equals recomputed
  runtime: "utf8",
});
/** One row of {@link AUDIT_EXECUTIONS}. */
export type ExecutionComparison = RowOf<typeof AUDIT_EXECUTIONS>;

/** The `audit_mutations` table: one row per released distractor. */
export const AUDIT_MUTATIONS = tableSpec({
  task_id: "utf8",
  corpus_id: "utf8",
  released_bug_type: "utf8",
  reproduced: "utf8", // exact | trailing_whitespace | no
  engine_bug_type: "utf8?", // bug type of the engine's matching candidate; null when none
  engine_operator: "utf8?",
  same_bug_type: "bool?", // null when not reproduced
  candidates: "int32", // how many candidates the engine made from the canonical
});
/** One row of {@link AUDIT_MUTATIONS}. */
export type MutationComparison = RowOf<typeof AUDIT_MUTATIONS>;
