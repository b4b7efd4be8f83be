import type { FindingRow } from "./findings.ts";
import type { ReleasedQuery, ReleasedSnippet } from "./released_rows.ts";

/** One row of `data/execution_cache.jsonl`. */
export interface CacheEntry {
  code_sha256: string;
  tests_sha256: string;
  outcomes: string[];
  locator: string;
}

/** One of a query's released top results. */
export interface TopResult {
  rank: number;
  corpus_id: string;
  label: string;
  /** `""` on canonicals, as the results files write it. */
  bug_type: string;
  similarity: number;
  passes_all_tests: boolean;
  /** Empty when the (code, tests) pair was not in the execution cache (results/README.md). */
  test_results: string[];
}

/** One released query ranking of a model. */
export interface ReleasedQueryRanking {
  query_id: string;
  correct_corpus_ids: string[];
  top_results: TopResult[];
}

/** `results/<model>.json`. */
export interface ReleasedRun {
  model: string;
  n_queries: number;
  n_corpus: number;
  ks: number[];
  /** e.g. "exec@1" → 0.331 (only the numeric entries) */
  metrics: Record<string, number>;
  per_query: ReleasedQueryRanking[];
  /** path of the file */
  file: string;
  /** Its path under `results/` without `.json` (matches its `.npz` under `embeddings/`). */
  stem: string;
}

/**
 * One metric × k entry of a pair in `tests/pairwise_tests.json`. The README
 * gives exec@k every field and execution_precision@k and ndcg@k the
 * bootstrap interval only; the rates are read wherever they are written.
 */
export interface ReleasedPairEntry {
  a_only?: number;
  b_only?: number;
  both?: number;
  neither?: number;
  a_rate?: number;
  b_rate?: number;
  delta?: number;
  mcnemar_exact_p?: number;
  bootstrap_ci_95: [number, number];
}

/** One pair of `tests/pairwise_tests.json`. */
export interface ReleasedPair {
  key: string;
  a: string;
  b: string;
  metrics: Record<string, ReleasedPairEntry>;
}

/** One model × metric of `tests/confidence_intervals.json`. */
export interface ReleasedInterval {
  mean: number;
  ci95_low: number;
  ci95_high: number;
  n: number;
  bootstrap_samples: number;
  seed: number;
}

/** One comparison × metric of `tests/paired_difference_intervals.json`. */
export interface ReleasedDifference {
  /** `"A minus B"` */
  key: string;
  a: string;
  b: string;
  metric: string;
  mean_difference: number;
  ci95_low: number;
  ci95_high: number;
}

/** Where each of the bundle's files was found (absolute paths; null when absent). */
export interface BundlePaths {
  queries: string;
  corpus: string;
  cache: string;
  results: string;
  invocations: string;
  leaderboard: string | null;
  pairwise: string | null;
  intervals: string | null;
  pairedDifferences: string | null;
  embeddingSummary: string | null;
}

/** A released bundle, read: its rows, its numbers and what the reader noticed. */
export interface Bundle {
  /** The folder it was read from (after mirror resolution). */
  dir: string;
  files: BundlePaths;
  queries: ReleasedQuery[];
  corpus: Map<string, ReleasedSnippet>;
  /** Keyed by `${code_sha256}/${tests_sha256}`. */
  cache: Map<string, CacheEntry>;
  /** In model-name order. */
  runs: ReleasedRun[];
  leaderboard: Record<string, unknown>[];
  invocations: Record<string, unknown>[];
  pairs: ReleasedPair[];
  /** model → metric → interval */
  intervals: Map<string, Map<string, ReleasedInterval>>;
  differences: ReleasedDifference[];
  /** model → its `embeddings/*.npz` file (dense systems with saved matrices). */
  embeddings: Map<string, string>;
  /** Everything noticed that does not stop recomputation (the `release_findings` rows). */
  findings: FindingRow[];
}
