import { relative } from "node:path";
import type { ReleaseFindingRow } from "../tables/release.ts";

/** One row of the `release_findings` table. */
export type FindingRow = ReleaseFindingRow;

/**
 * What the reader notices in a bundle without refusing it, each kind with
 * whether the release's READMEs document it as a normal case, and what it
 * means. A bundle is refused only where recomputation is impossible (a
 * missing file, an id that does not exist, an unreadable file or matrix);
 * everything here is counted and the run goes on.
 */
export const FINDING_KINDS = {
  not_in_cache: {
    documented: true,
    means:
      "empty test_results: the (code, tests) pair is not in the execution cache (results/README.md); the kit runs it itself",
  },
  pass_flag_disagrees: {
    documented: false,
    means: "passes_all_tests is not what the per-test outcomes say",
  },
  test_count_differs: {
    documented: false,
    means: "a non-empty outcome list whose length is not the query's number of tests",
  },
  similarity_rises: { documented: false, means: "similarity rises from one rank to the next" },
  rank_differs: { documented: false, means: "rank is not the entry's position in the list" },
  label_differs: { documented: false, means: "a top result's label is not the corpus row's" },
  bug_type_differs: {
    documented: false,
    means: "a top result's bug_type is not the corpus row's",
  },
  differs_from_cache: {
    documented: false,
    means: "a top result's outcomes differ from the execution cache's for that pair",
  },
  listed_but_not_in_cache: {
    documented: false,
    means: "a top result carries outcomes for a pair the execution cache does not hold",
  },
  empty_but_in_cache: {
    documented: false,
    means: "an empty outcome list for a pair the execution cache holds",
  },
  passes_but_not_correct: {
    documented: false,
    means: "passes_all_tests is true for a snippet that is not a correct id of the query",
  },
  correct_but_fails: {
    documented: false,
    means: "a correct id of the query whose passes_all_tests is false",
  },
  count_differs: {
    documented: false,
    means: "n_queries or n_corpus is not the number of rows in data/",
  },
  query_unranked: { documented: false, means: "a query with no per_query entry, or two" },
  top_results_short: { documented: false, means: "fewer than 10 top results for a query" },
  malformed_entry: {
    documented: false,
    means: "an entry without the documented fields or types; it is skipped",
  },
  unknown_outcome: {
    documented: false,
    means: "an outcome outside pass, FAIL, FAIL:<message>, TIMEOUT, ERROR:<type>",
  },
  cache_repeated: {
    documented: false,
    means: "a (code, tests) pair cached twice with other outcomes (the first is kept)",
  },
  own_pair_not_in_cache: {
    documented: false,
    means: "a query's own canonical or distractor has no execution cache row",
  },
  canonical_fails_in_cache: {
    documented: false,
    means: "the cache says a canonical fails one of its query's tests",
  },
  distractor_passes_in_cache: {
    documented: false,
    means: "the cache says a paired distractor passes every test of its query",
  },
  entry_differs: {
    documented: false,
    means: "a corpus row's source_entry_id is not its query's entry_id",
  },
  leaderboard_differs: {
    documented: false,
    means: "a leaderboard number is not the same model's results-file number",
  },
  difference_differs: {
    documented: false,
    means: "a paired difference's mean is not the delta pairwise_tests.json gives for the pair",
  },
  missing_entry: {
    documented: false,
    means: "a model, pair or metric the file should cover has no entry",
  },
  unknown_model: { documented: false, means: "an entry names a model with no results file" },
  pair_unordered: { documented: false, means: 'a pair key "A vs B" with A not before B' },
  file_absent: {
    documented: false,
    means: "a file the README lists is absent (and not listed in SHA256SUMS)",
  },
  npz_unmatched: {
    documented: false,
    means: "an .npz matching no released model, or several; it is not scored",
  },
} as const;

/** A finding kind's name. */
export type FindingKind = keyof typeof FINDING_KINDS;

/** Collects findings; counts repeats of (file, place, kind) and keeps the first example. */
export interface Findings {
  note(file: string, place: string, kind: FindingKind, example: string): void;
  /** The collected rows, by file, place and kind. */
  rows(): FindingRow[];
}

/**
 * A collector for the findings of the bundle in `root`: files are written
 * relative to it, so the table is the same wherever the bundle lies.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const f = findingCollector("/b");
 * f.note("/b/results/BM25.json", "top_results[].test_results", "not_in_cache", "q_0001 rank 5");
 * f.note("/b/results/BM25.json", "top_results[].test_results", "not_in_cache", "q_0001 rank 6");
 * deepStrictEqual(f.rows(), [{
 *   file: "results/BM25.json",
 *   place: "top_results[].test_results",
 *   kind: "not_in_cache",
 *   documented: true,
 *   count: 2,
 *   example: "q_0001 rank 5",
 * }]);
 * ```
 */
export function findingCollector(root: string): Findings {
  const byKey = new Map<string, FindingRow>();
  return {
    note(file, place, kind, example) {
      const rel = relative(root, file).split("\\").join("/") || file;
      const key = `${rel}\u0000${place}\u0000${kind}`;
      const row = byKey.get(key);
      if (row) row.count++;
      else {
        byKey.set(key, {
          file: rel,
          place,
          kind,
          documented: FINDING_KINDS[kind].documented,
          count: 1,
          example,
        });
      }
    },
    rows() {
      const order = (r: FindingRow) => `${r.file}\u0000${r.place}\u0000${r.kind}`;
      return [...byKey.values()].sort((a, b) => order(a) < order(b) ? -1 : 1);
    },
  };
}
