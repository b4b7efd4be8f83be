import type { TableSpec } from "../io/arrow_table.ts";

/** Which tests a reranker may run: one row per (task, test). */
export const TEST_SPLIT: TableSpec = {
  task_id: "utf8",
  origin: "utf8", // suite (one of the task's tests) | docstring (an example of the query's docstring)
  test_index: "int32", // index in the suite, or among the docstring examples
  test: "utf8",
  visible: "bool", // a reranker may run it
  how: "utf8", // docstring | split: how the task's visible tests were chosen
};

/** What one reranked config needed for one query (deterministic: cache hits count too). */
export const RERANK_COST: TableSpec = {
  config: "utf8",
  query_id: "utf8",
  suites: "int32",
  tests: "int32",
  api_calls: "int32",
  tokens: "int32",
};

/**
 * The oracle time of the suites of `rerank_cost`: a measurement, kept apart
 * (like execution_times) so that every other rerank table is byte-identical
 * across runs. Per-test times as the oracle measured them when the suite ran.
 */
export const RERANK_TIMES: TableSpec = {
  config: "utf8",
  query_id: "utf8",
  oracle_ms: "float64",
};

/** The tables the rerank stage writes. */
export const RERANK_TABLES = [
  "rerank_rankings",
  "rerank_per_query",
  "rerank_cost",
  "rerank_times",
  "test_split",
];
