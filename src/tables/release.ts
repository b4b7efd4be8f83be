import { type RowOf, tableSpec } from "../io/arrow_table.ts";
import { CORPUS } from "./schema.ts";

/**
 * `corpus` as a release run writes it: the same columns (the same Arrow
 * schema), but a released snippet of no kept query has no task or domain,
 * and one the kit did not run has no timeout flag.
 */
export const RELEASED_CORPUS = tableSpec({
  ...CORPUS,
  task_id: "utf8?",
  domain: "utf8?",
  timeout_only: "bool?",
});

// The tables of a release run: the release-oracle and compare stages' comparisons
// of the kit with the ExecRetrieval release, and what the reader noticed.

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
  released_corpus_id: "utf8?", // null when that top 10 is shorter
  kit_corpus_id: "utf8?",
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

/** `oracle_disagreements`: one row per test whose outcome differs, with both outcomes. */
export const ORACLE_DISAGREEMENTS = tableSpec({
  query_id: "utf8",
  corpus_id: "utf8",
  test_index: "int32",
  released: "utf8?", // as released; null when the cache lacks the pair
  kit: "utf8",
  runtime: "utf8",
});

/**
 * `release_findings`: what the reader noticed in the bundle without refusing
 * it, one row per (file, place, kind), counted, with the first occurrence.
 */
export const RELEASE_FINDINGS = tableSpec({
  file: "utf8", // relative to the bundle's folder
  place: "utf8", // where in the file (a field path)
  kind: "utf8", // what was noticed (FINDING_KINDS in src/release/findings.ts)
  documented: "bool", // the release's READMEs describe this case as normal
  count: "int32",
  example: "utf8", // the first occurrence
});
/** One row of {@link RELEASE_FINDINGS}. */
export type ReleaseFindingRow = RowOf<typeof RELEASE_FINDINGS>;

/**
 * `oracle_not_in_release`: each (query, snippet) pair a released top 10
 * lists with no outcomes (not in the release's execution cache), run by the
 * kit against the query's suite.
 */
export const ORACLE_NOT_IN_RELEASE = tableSpec({
  query_id: "utf8", // the kit's query id (release/<query_id>)
  corpus_id: "utf8",
  label: "utf8", // the snippet's corpus label (another query's canonical is "correct")
  bug_type: "utf8?",
  tests: "int32",
  kit_pass: "bool",
  listed_by: "int32", // how many results files list the pair
});

/** The `release_mutations` table: one row per released distractor. */
export const RELEASE_MUTATIONS = tableSpec({
  task_id: "utf8",
  corpus_id: "utf8",
  released_bug_type: "utf8",
  reproduced: "utf8", // exact | trailing_whitespace | no
  engine_bug_type: "utf8?", // bug type of the engine's matching candidate; null when none
  engine_operator: "utf8?",
  same_bug_type: "bool?", // null when not reproduced
  candidates: "int32", // how many candidates the engine made from the canonical
});
/** One row of {@link RELEASE_MUTATIONS}. */
export type MutationComparison = RowOf<typeof RELEASE_MUTATIONS>;
