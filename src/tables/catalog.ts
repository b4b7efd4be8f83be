/**
 * Every pipeline table in one list: its name, its spec, the stage that writes
 * it and the site's loader for it. The stages' table lists
 * (src/pipeline/stages.ts), the release tables' empty stand-ins
 * (src/site/release_tables.ts) and the tests read this list; no other file
 * keeps a list of table names.
 *
 * @module
 */
import type { TableSpec } from "../io/arrow_table.ts";
import {
  BREAKDOWNS,
  CORPUS,
  EXECUTION_TIMES,
  EXECUTIONS,
  LIMIT_MARGINS,
  METRICS,
  MODEL_RANKS,
  MUTANTS,
  PAIRWISE,
  PER_QUERY,
  QUERIES,
  RANKINGS,
  REJECTS,
  TASKS,
  VALIDATION,
} from "./schema.ts";
import { RERANK_COST, RERANK_TIMES, TEST_SPLIT } from "./rerank.ts";
import { BOARD_ENTRIES, LEADERBOARD } from "./board.ts";
import {
  ORACLE_AGREEMENT,
  ORACLE_DISAGREEMENTS,
  ORACLE_NOT_IN_RELEASE,
  PAPER_COMPARISON,
  RANKING_AGREEMENT,
  RANKING_DIFFERENCES,
  RELEASE_FINDINGS,
  RELEASE_MUTATIONS,
} from "./release.ts";

/** One table of the catalog. */
export interface CatalogEntry {
  name: string;
  spec: TableSpec;
  /** The stage that writes it (a name in src/pipeline/stages.ts). */
  stage: string;
  /** Written only by a release run (its oracle or compare stage). */
  releaseOnly: boolean;
  /**
   * Holds measurements (how long work took), which differ between two runs
   * of the same inputs; every other table is byte-identical between them.
   */
  measured: boolean;
  /**
   * The site's data loader of the table (`docs/data/<name>.arrow.ts`), or
   * why it has none.
   */
  loader: { path: string } | { none: string };
}

const loader = (name: string) => ({ path: `docs/data/${name}.arrow.ts` });

function entry(
  name: string,
  spec: TableSpec,
  stage: string,
  more: Partial<Pick<CatalogEntry, "releaseOnly" | "loader" | "measured">> = {},
): CatalogEntry {
  return { name, spec, stage, releaseOnly: false, measured: false, loader: loader(name), ...more };
}

/** The tables in the order the stages write them. */
export const TABLE_CATALOG: readonly CatalogEntry[] = [
  entry("tasks", TASKS, "tasks"),
  entry("mutants", MUTANTS, "mutate"),
  entry("executions", EXECUTIONS, "oracle"),
  entry("execution_times", EXECUTION_TIMES, "oracle", { measured: true }),
  entry("limit_margins", LIMIT_MARGINS, "oracle", { measured: true }),
  entry("queries", QUERIES, "oracle"),
  entry("corpus", CORPUS, "oracle"),
  entry("validation", VALIDATION, "oracle"),
  entry("oracle_agreement", ORACLE_AGREEMENT, "oracle", { releaseOnly: true }),
  entry("oracle_disagreements", ORACLE_DISAGREEMENTS, "oracle", { releaseOnly: true }),
  entry("oracle_not_in_release", ORACLE_NOT_IN_RELEASE, "oracle", { releaseOnly: true }),
  entry("rankings", RANKINGS, "score"),
  entry("per_query", PER_QUERY, "score"),
  entry("rerank_rankings", RANKINGS, "rerank"),
  entry("rerank_per_query", PER_QUERY, "rerank", {
    loader: {
      none: "docs/data/per_query.arrow.ts serves it with per_query (src/site/reranked_union.ts)",
    },
  }),
  entry("rerank_cost", RERANK_COST, "rerank"),
  entry("rerank_times", RERANK_TIMES, "rerank", { measured: true }),
  entry("test_split", TEST_SPLIT, "rerank"),
  entry("board_entries", BOARD_ENTRIES, "leaderboard"),
  entry("board_rankings", RANKINGS, "leaderboard", {
    loader: {
      none: "docs/data/rankings.arrow.ts serves it with rankings (src/site/reranked_union.ts)",
    },
  }),
  entry("board_per_query", PER_QUERY, "leaderboard", {
    loader: {
      none: "docs/data/per_query.arrow.ts serves it with per_query (src/site/reranked_union.ts)",
    },
  }),
  entry("metrics", METRICS, "stats"),
  entry("pairwise", PAIRWISE, "stats"),
  entry("breakdowns", BREAKDOWNS, "stats"),
  entry("model_ranks", MODEL_RANKS, "stats", {
    loader: { none: "no page shows it; SQL and the exports read it" },
  }),
  entry("leaderboard", LEADERBOARD, "stats"),
  entry("rejects", REJECTS, "stats"),
  entry("paper_comparison", PAPER_COMPARISON, "compare", { releaseOnly: true }),
  entry("ranking_agreement", RANKING_AGREEMENT, "compare", { releaseOnly: true }),
  entry("ranking_differences", RANKING_DIFFERENCES, "compare", { releaseOnly: true }),
  entry("release_mutations", RELEASE_MUTATIONS, "compare", { releaseOnly: true }),
  entry("release_findings", RELEASE_FINDINGS, "compare", { releaseOnly: true }),
];

/**
 * The names of the tables `stage` writes, in catalog order; `releaseOnly`
 * picks those only a release run writes (true) or those every run does (false).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { tablesOf } from "./catalog.ts";
 * deepStrictEqual(tablesOf("score"), ["rankings", "per_query"]);
 * deepStrictEqual(tablesOf("oracle", true), [
 *   "oracle_agreement",
 *   "oracle_disagreements",
 *   "oracle_not_in_release",
 * ]);
 * ```
 */
export function tablesOf(stage: string, releaseOnly?: boolean): string[] {
  return TABLE_CATALOG
    .filter((e) =>
      e.stage === stage && (releaseOnly === undefined || e.releaseOnly === releaseOnly)
    )
    .map((e) => e.name);
}

/**
 * The tables that hold measurements (see {@link CatalogEntry.measured}):
 * what two runs of the same inputs may differ in, besides an embedding
 * file's `created_at`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { measuredTables } from "./catalog.ts";
 * deepStrictEqual(measuredTables(), ["execution_times", "limit_margins", "rerank_times"]);
 * ```
 */
export function measuredTables(): string[] {
  return TABLE_CATALOG.filter((e) => e.measured).map((e) => e.name);
}
