/**
 * Every pipeline table in one list: its name, its spec, the stage that writes
 * it and how the site serves it. The stages' table lists
 * (src/pipeline/stages.ts), the combined rejects (src/tables/rejects.ts), the
 * site's tables and SQL console (src/site/site_tables.ts), the views of
 * `execret sql` (src/sql/run_database.ts) and the tests read this list; no
 * other file keeps a list of table names. A new table is its spec plus one
 * entry here.
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

/** How the site serves a table (src/site/site_tables.ts). */
export interface SiteUse {
  /**
   * A run may lack it (a run from before its stage, or one imported from
   * elsewhere): the site then serves an empty table of its spec. Without
   * it, a site built from such a run fails, naming the table.
   */
  optional: boolean;
  /** A site table whose rows it adds to (same columns): configs beside configs. */
  into?: string;
  /** Why the site does not serve it under its own name (`data/<name>.arrow`, SQL console). */
  hidden?: string;
}

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
  site: SiteUse;
}

/** What {@link entry} may set besides the name, spec and stage. */
type EntryOptions = Partial<Pick<CatalogEntry, "releaseOnly" | "measured"> & SiteUse>;

function entry(
  name: string,
  spec: TableSpec,
  stage: string,
  more: EntryOptions = {},
): CatalogEntry {
  const { releaseOnly = false, measured = false, optional, into, hidden } = more;
  const site: SiteUse = { optional: optional ?? releaseOnly };
  if (into) site.into = into;
  if (hidden) site.hidden = hidden;
  return { name, spec, stage, releaseOnly, measured, site };
}

/** A stage's own rejects (`rejects_<stage>`, src/tables/rejects.ts), combined by stats into `rejects`. */
const stageRejects = (stage: string) =>
  entry(`rejects_${stage}`, REJECTS, stage, {
    optional: true,
    hidden: "its rows are in rejects, with every other stage's",
  });

/** The tables in the order the stages write them. */
export const TABLE_CATALOG: readonly CatalogEntry[] = [
  entry("tasks", TASKS, "tasks"),
  stageRejects("tasks"),
  entry("mutants", MUTANTS, "mutate"),
  stageRejects("mutate"),
  entry("executions", EXECUTIONS, "oracle"),
  // A run imported from elsewhere may carry outcomes without timings.
  entry("execution_times", EXECUTION_TIMES, "oracle", { measured: true, optional: true }),
  entry("limit_margins", LIMIT_MARGINS, "oracle", { measured: true, optional: true }),
  entry("queries", QUERIES, "oracle"),
  entry("corpus", CORPUS, "oracle"),
  entry("validation", VALIDATION, "oracle", { optional: true }),
  stageRejects("oracle"),
  entry("oracle_agreement", ORACLE_AGREEMENT, "oracle", { releaseOnly: true }),
  entry("oracle_disagreements", ORACLE_DISAGREEMENTS, "oracle", { releaseOnly: true }),
  entry("oracle_not_in_release", ORACLE_NOT_IN_RELEASE, "oracle", { releaseOnly: true }),
  entry("rankings", RANKINGS, "score"),
  entry("per_query", PER_QUERY, "score"),
  // Reranked configs and leaderboard entries are configs like any other on the site.
  entry("rerank_rankings", RANKINGS, "rerank", { optional: true, into: "rankings" }),
  entry("rerank_per_query", PER_QUERY, "rerank", {
    optional: true,
    into: "per_query",
    hidden: "its rows are in per_query",
  }),
  entry("rerank_cost", RERANK_COST, "rerank", { optional: true }),
  entry("rerank_times", RERANK_TIMES, "rerank", { measured: true, optional: true }),
  entry("test_split", TEST_SPLIT, "rerank", { optional: true }),
  entry("board_entries", BOARD_ENTRIES, "leaderboard", { optional: true }),
  entry("board_rankings", RANKINGS, "leaderboard", {
    optional: true,
    into: "rankings",
    hidden: "its rows are in rankings",
  }),
  entry("board_per_query", PER_QUERY, "leaderboard", {
    optional: true,
    into: "per_query",
    hidden: "its rows are in per_query",
  }),
  stageRejects("leaderboard"),
  entry("metrics", METRICS, "stats"),
  entry("pairwise", PAIRWISE, "stats"),
  entry("breakdowns", BREAKDOWNS, "stats", { optional: true }),
  entry("model_ranks", MODEL_RANKS, "stats", { optional: true }),
  entry("leaderboard", LEADERBOARD, "stats", { optional: true }),
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
 * deepStrictEqual(tablesOf("tasks"), ["tasks", "rejects_tasks"]);
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

/**
 * The table `name`'s entry, or a one-line error naming it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { catalogEntry } from "./catalog.ts";
 * strictEqual(catalogEntry("metrics").stage, "stats");
 * ```
 */
export function catalogEntry(name: string): CatalogEntry {
  const found = TABLE_CATALOG.find((e) => e.name === name);
  if (!found) throw new Error(`${name}: no such table in src/tables/catalog.ts`);
  return found;
}
