import { type RowOf, tableSpec } from "../io/arrow_table.ts";

// The rerank stage's own tables; its rankings and per_query rows use RANKINGS and PER_QUERY.

/** Which tests a reranker may run: one row per (task, test). */
export const TEST_SPLIT = tableSpec({
  task_id: "utf8",
  origin: "utf8", // suite (one of the task's tests) | docstring (an example of the query's docstring)
  test_index: "int32", // index in the suite, or among the docstring examples
  test: "utf8",
  visible: "bool", // a reranker may run it
  how: "utf8", // docstring | split: how the task's visible tests were chosen
});
/** One row of {@link TEST_SPLIT}. */
export type TestSplitRow = RowOf<typeof TEST_SPLIT>;

/** What one reranked config needed for one query (deterministic: cache hits count too). */
export const RERANK_COST = tableSpec({
  config: "utf8",
  query_id: "utf8",
  suites: "int32",
  tests: "int32",
  api_calls: "int32",
  tokens: "int32",
  search_units: "float64", // Cohere bills rerank in these; 0 for the others
});

/**
 * The oracle time of the suites of `rerank_cost`: a measurement, kept apart
 * (like execution_times) so that every other rerank table is byte-identical
 * across runs. Per-test times as the oracle measured them when the suite ran.
 */
export const RERANK_TIMES = tableSpec({
  config: "utf8",
  query_id: "utf8",
  oracle_ms: "float64",
});
