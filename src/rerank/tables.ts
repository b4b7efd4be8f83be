/** The tables the rerank stage writes. */
export const RERANK_TABLES = [
  "rerank_rankings",
  "rerank_per_query",
  "rerank_cost",
  "rerank_times",
  "test_split",
];
