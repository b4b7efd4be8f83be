import { type RowOf, tableSpec } from "../io/arrow_table.ts";

/**
 * The pipeline's tables: the contract between stages, the report and SQL
 * users. A stage may add columns at the end; renaming or retyping a column is
 * a breaking change to every reader, so it happens here and nowhere else.
 */

/** One task: a query, its canonical solution and its tests. */
export const TASKS = tableSpec({
  task_id: "utf8", // "<source>/<id in source>", e.g. "mbpp/1", "humaneval/0", "builtin/bits_popcount"
  source: "utf8", // builtin | mbpp | humaneval | release | jsonl:<file name>
  source_id: "utf8", // the id as the source spells it
  domain: "utf8", // one of DOMAINS
  domain_inferred: "bool", // true when assigned by the keyword rules, not the source
  query: "utf8",
  entry_point: "utf8",
  canonical: "utf8",
  setup: "utf8", // "" when none
  tests: "utf8_list", // each one statement, runnable after setup + code
  extra_tests: "utf8_list", // flagged extras (MBPP challenge_test_list); not used as gates
  locator: "utf8", // file:line where the task came from
});

/**
 * One row of {@link TASKS}, as the tasks stage writes it (no column is null).
 * Stages that read only some columns pick them from this type.
 */
export type TaskRow = RowOf<typeof TASKS>;

/** A rejected input row or candidate, at any stage. Nothing is silently dropped. */
export const REJECTS = tableSpec({
  stage: "utf8", // tasks | mutate | oracle | embed | ...
  source: "utf8",
  locator: "utf8", // file:line or an id
  reason: "utf8",
});
/** One row of {@link REJECTS}. */
export type RejectRow = RowOf<typeof REJECTS>;

/** A candidate buggy variant of a canonical. */
export const MUTANTS = tableSpec({
  snippet_id: "utf8", // "<task_id>#m<order>"
  task_id: "utf8",
  bug_type: "utf8",
  operator: "utf8", // finer name, e.g. lt_to_le
  extension: "bool", // true for operators beyond the paper's six
  order: "int32", // seeded selection order within the task, 0 first
  line: "int32", // 1-based line of the edit in the canonical
  column: "int32", // 1-based column (UTF-16 code units)
  before: "utf8", // that line before the edit
  after: "utf8", // that line after ("" when the line was deleted)
  code: "utf8",
  code_sha256: "utf8",
});
/** One row of {@link MUTANTS}. */
export type MutantRow = RowOf<typeof MUTANTS>;

/** One test's outcome for one snippet. */
export const EXECUTIONS = tableSpec({
  code_sha256: "utf8", // sha256 of setup + code as executed
  tests_sha256: "utf8", // sha256 of the JSON list of test statements
  runtime: "utf8", // e.g. pyodide-314.0.7 or cpython-3.11.7
  test_index: "int32",
  outcome: "utf8", // pass | FAIL | TIMEOUT | ERROR:<ExceptionType> | NOT_RUN (candidate stopped at a TIMEOUT)
});
/** One row of {@link EXECUTIONS}. */
export type ExecutionRow = RowOf<typeof EXECUTIONS>;

/**
 * How long each test of `executions` took. A measurement, kept apart from the
 * outcomes so that every result table is byte-identical across runs and
 * machines; this one (like an embedding file's created_at) cannot be.
 */
export const EXECUTION_TIMES = tableSpec({
  code_sha256: "utf8",
  tests_sha256: "utf8",
  runtime: "utf8",
  test_index: "int32",
  /** Wall-clock ms the test took. */
  ms: "float64",
  /** CPU ms its worker used on it, what the per-test limit counts (null: not measured). */
  cpu_ms: "float64?",
});
/** One row of {@link EXECUTION_TIMES}. */
export type ExecutionTimeRow = RowOf<typeof EXECUTION_TIMES>;

/**
 * `limit_margins`: each task whose canonical's slowest test used more than a
 * tenth of the per-test limit, so the reader sees which verdicts are nearest
 * the limit (src/oracle/limit_margins.ts). Built from measured times, like
 * `execution_times`: which tasks it lists, and their times, vary between runs.
 */
export const LIMIT_MARGINS = tableSpec({
  task_id: "utf8",
  test_index: "int32", // the canonical's slowest test
  outcome: "utf8", // that test's outcome (TIMEOUT: the canonical was dropped for time)
  cpu_ms: "float64?", // its CPU time, what the limit counts; null where not measured
  ms: "float64", // its wall-clock time
  limit_ms: "int32",
  share: "float64", // cpu_ms (else ms) / limit_ms
});

/** The oracle's gate counts, long form: one row per (gate, source). */
export const VALIDATION = tableSpec({
  gate: "utf8", // e.g. canonical_pass, equivalent, tasks_with_distractors:4, bug_type:off_by_one
  source: "utf8", // a task source, or "all"
  count: "int32",
});

/** One benchmark query (one per kept task). */
export const QUERIES = tableSpec({
  query_id: "utf8", // equals the task_id
  task_id: "utf8",
  source: "utf8",
  domain: "utf8",
  query: "utf8",
  entry_point: "utf8",
  tests: "utf8_list",
  correct_ids: "utf8_list",
  distractor_ids: "utf8_list",
});
/** One row of {@link QUERIES}. */
export type QueryRow = RowOf<typeof QUERIES>;

/** One snippet of the retrieval pool. */
export const CORPUS = tableSpec({
  corpus_id: "utf8", // canonical: "<task_id>#c"; distractor: its snippet_id
  task_id: "utf8",
  source: "utf8",
  domain: "utf8",
  label: "utf8", // correct | incorrect
  bug_type: "utf8?", // null on canonicals
  operator: "utf8?", // null on canonicals
  line: "int32?", // this and before/after: null on canonicals
  before: "utf8?",
  after: "utf8?",
  timeout_only: "bool", // distractor whose tests that ran fail only by TIMEOUT (kept, flagged)
  code: "utf8",
  code_sha256: "utf8",
});
/** One row of {@link CORPUS}. */
export type CorpusRow = RowOf<typeof CORPUS>;

/** One row per result of the top 10 (plus the canonical's own row when lower). */
export const RANKINGS = tableSpec({
  config: "utf8",
  query_id: "utf8",
  rank: "int32", // 1-based after the deterministic tie-break
  corpus_id: "utf8",
  score: "float64",
  label: "utf8",
  bug_type: "utf8?", // null on canonicals
  own_task: "bool", // the snippet belongs to the query's own task
  tie: "bool", // another document has exactly this score
  in_top: "bool", // rank <= 10; false only on the canonical's own row
});
/** One row of {@link RANKINGS}. */
export type RankingRow = RowOf<typeof RANKINGS>;

/** Per (config, query, metric, k) value; k = 0 for metrics without a cutoff. */
export const PER_QUERY = tableSpec({
  config: "utf8",
  query_id: "utf8",
  source: "utf8",
  domain: "utf8",
  metric: "utf8", // exec, precision, ndcg, gap, expected_exec, mrr, canonical_rank, margin, ...
  k: "int32",
  value: "float64",
});
/** One row of {@link PER_QUERY}. */
export type PerQueryRow = RowOf<typeof PER_QUERY>;

/** Aggregate of a metric with its bootstrap interval. */
export const METRICS = tableSpec({
  config: "utf8",
  metric: "utf8",
  k: "int32",
  value: "float64",
  ci_low: "float64",
  ci_high: "float64",
  n: "int32",
});
/** One row of {@link METRICS}. */
export type MetricRow = RowOf<typeof METRICS>;

/**
 * Every aggregate of {@link METRICS} per source and per domain, with its
 * bootstrap interval (same shared resamples: a group's mean over the drawn
 * queries of that group). Only the stats stage and the report use it.
 */
export const BREAKDOWNS = tableSpec({
  config: "utf8",
  group_by: "utf8", // source | domain
  group: "utf8",
  metric: "utf8",
  k: "int32",
  value: "float64",
  ci_low: "float64",
  ci_high: "float64",
  n: "int32",
});
/** One row of {@link BREAKDOWNS}. */
export type BreakdownRow = RowOf<typeof BREAKDOWNS>;

/** A paired comparison of two configs on one metric at one k. */
export const PAIRWISE = tableSpec({
  config_a: "utf8",
  config_b: "utf8",
  metric: "utf8",
  k: "int32",
  a_rate: "float64",
  b_rate: "float64",
  delta: "float64", // a - b
  ci_low: "float64",
  ci_high: "float64",
  a_only: "int32?", // McNemar counts (exec only, else null)
  b_only: "int32?",
  both: "int32?",
  neither: "int32?",
  p_mcnemar: "float64?",
  p_holm: "float64?",
});
/** One row of {@link PAIRWISE}. */
export type PairwiseRow = RowOf<typeof PAIRWISE>;

/**
 * Where each config stands among the run's configs per leaderboard metric
 * and k: its rank (1 = best; ties share a rank) and a 95% rank interval over
 * the same bootstrap resamples as the metrics' intervals (src/stats/model_ranks.ts).
 */
export const MODEL_RANKS = tableSpec({
  config: "utf8",
  metric: "utf8",
  k: "int32",
  rank: "int32",
  rank_ci_low: "int32",
  rank_ci_high: "int32",
  n_configs: "int32",
});

/** The paper's ten task domains. */
export const DOMAINS = [
  "bit_manipulation",
  "collections",
  "data_transformation",
  "date_time",
  "geometry",
  "math_numerical",
  "sorting_searching",
  "state_machines",
  "string_processing",
  "validation",
] as const;

/** The paper's six bug types, in the order they are reported. */
export const BUG_TYPES = [
  "off_by_one",
  "off_by_one_boundary",
  "swap_arguments",
  "remove_edge_case_check",
  "wrong_comparison",
  "wrong_operator",
] as const;
