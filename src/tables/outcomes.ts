import { type RowOf, tableSpec } from "../io/arrow_table.ts";

/**
 * The explorer's `outcomes` table, built by a data loader rather than a
 * stage: one test outcome of one pool snippet (the explorer's view of
 * `executions`, keyed by corpus id).
 */
export const SNIPPET_OUTCOMES = tableSpec({
  corpus_id: "utf8",
  test_index: "int32",
  outcome: "utf8",
  ms: "float64?", // null when the run recorded no timing
});
/** One row of {@link SNIPPET_OUTCOMES}. */
export type SnippetOutcomeRow = RowOf<typeof SNIPPET_OUTCOMES>;
