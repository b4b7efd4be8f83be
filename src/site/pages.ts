/**
 * The site's pages as one list ({@link PAGES}): each page's name and path,
 * and what it asks its `sql` (src/site/report/page_sql.ts), run once at build
 * time by src/site/page_data.ts: the tables the queries read and each query
 * with the parameter lists its inputs can choose (every k, every metric …).
 * A page that asks for anything not listed here fails with a cell error
 * naming the query, which the site test catches. An entry's fields:
 * src/site/page_entry.ts.
 *
 * @module
 */
import type { PageParam } from "./report/page_sql.ts";
import type { PageEntry, RunQuery } from "./page_entry.ts";
import * as Q from "./report/queries.ts";
import * as RQ from "./report/release_queries.ts";
import * as G from "./report/closing_the_gap.ts";
import * as B from "./report/board.ts";

/** Every cutoff the run reports exec at, as one-parameter lists. */
async function everyK(run: RunQuery): Promise<PageParam[][]> {
  return (await run(Q.KS_SQL)).map((d) => [d.k as number]);
}

/** The first cutoff the run reports exec at (the cutoff pages open on), as a one-parameter list. */
async function firstK(run: RunQuery): Promise<PageParam[][]> {
  return (await everyK(run)).slice(0, 1);
}

/**
 * The (metric, k) the Significance page opens on: exec if the run has it,
 * else its first metric, at that metric's first k. Only this view is
 * prepared: a release run has thousands of pairwise rows per view, so other
 * choices read their rows from DuckDB-wasm when a visitor makes them.
 */
async function defaultPairwiseKey(run: RunQuery): Promise<PageParam[][]> {
  const keys = await run(Q.PAIRWISE_KEYS_SQL);
  const metrics = [...new Set(keys.map((d) => String(d.metric)))];
  const metric = metrics.includes("exec") ? "exec" : metrics[0];
  const first = keys.find((d) => d.metric === metric);
  return first ? [[metric, first.k as number]] : [];
}

/** The groups of rejects whose rows the Benchmark page gets at build time ({@link Q.REJECT_ROWS_AT_BUILD}). */
async function rejectGroupsAtBuild(run: RunQuery): Promise<PageParam[][]> {
  return (await run(Q.REJECT_REASONS_SQL))
    .filter((g) => (g.rejects as number) <= Q.REJECT_ROWS_AT_BUILD)
    .map((g) => [g.stage as string, g.reason as string]);
}

const RELEASE_OVERVIEW = [
  RQ.RELEASE_HEADLINE_SQL,
  RQ.RELEASE_STATUS_SQL,
  RQ.RANKING_AGREEMENT_SQL,
  Q.ORACLE_AGREE_SQL,
];

/**
 * Every page of the site, in sidebar order: the one list that the Framework
 * config (observablehq.config.ts), the pages' data files (src/site/site_data.ts)
 * and the figure files (src/site/figure_files.ts) read. A page is its Markdown
 * in docs/ plus its entry here.
 */
export const PAGES: readonly PageEntry[] = [
  {
    name: "Overview",
    path: "/",
    data: {
      id: "overview",
      tables: ["metrics", "rankings", "paper_comparison", "ranking_agreement", "oracle_agreement"],
      queries: [
        Q.HEADLINE_SQL,
        Q.SHARES_SQL,
        Q.MISS_SHARE_SQL,
        Q.CANONICAL_BELOW_SQL,
        { sql: G.EXEC_AT_K_SQL, params: () => Promise.resolve([[1]]) },
        ...RELEASE_OVERVIEW,
      ],
    },
  },
  {
    name: "Benchmark",
    path: "/benchmark",
    data: {
      id: "benchmark",
      tables: [
        "queries",
        "corpus",
        "rejects",
        "validation",
        "limit_margins",
        "oracle_agreement",
        "oracle_disagreements",
        "release_mutations",
      ],
      queries: [
        Q.DATASET_SQL,
        Q.BUG_MIX_SQL,
        Q.DISTRACTORS_PER_TASK_SQL,
        Q.VALIDATION_ROWS_SQL,
        Q.LIMIT_MARGINS_SQL,
        Q.REJECT_REASONS_SQL,
        { sql: Q.REJECT_ROWS_SQL, params: rejectGroupsAtBuild },
        RQ.ORACLE_AGREEMENT_SQL,
        RQ.ORACLE_DISAGREEMENTS_SQL,
        RQ.RELEASE_MUTATIONS_SQL,
      ],
    },
  },
  {
    name: "Leaderboard",
    path: "/leaderboard",
    data: {
      id: "leaderboard",
      tables: ["metrics", "breakdowns", "paper_comparison", "leaderboard", "board_entries"],
      queries: [
        B.BOARD_SQL,
        Q.KS_SQL,
        // The opening view only (the first k, by source): a board of 100
        // models made the page's data 956 kB, half of it breakdowns at every k.
        { sql: Q.LEADERBOARD_SQL, params: firstK },
        RQ.RELEASE_SCALAR_SQL,
        Q.EXEC_CURVE_SQL,
        {
          sql: Q.BREAKDOWN_SQL,
          params: async (run) => (await firstK(run)).map(([k]) => ["source", k]),
        },
      ],
    },
    // Every other k and grouping, fetched once a visitor picks one.
    more: {
      id: "leaderboard_more",
      tables: ["metrics", "breakdowns"],
      queries: [
        { sql: Q.LEADERBOARD_SQL, params: everyK },
        {
          sql: Q.BREAKDOWN_SQL,
          params: async (run) =>
            (await everyK(run)).flatMap(([k]) => [["source", k], ["domain", k]]),
        },
      ],
    },
  },
  {
    name: "Functional gap",
    path: "/gap",
    data: {
      id: "gap",
      tables: ["rankings", "queries", "corpus", "metrics", "margins", "paper_comparison"],
      queries: [
        Q.CANONICAL_RANK_SQL,
        Q.MARGIN_BOX_SQL,
        Q.MARGIN_BINS_SQL,
        Q.OUTRANK_SQL,
        Q.FOOL_RATE_SQL,
        Q.MISS_ATTRIBUTION_SQL,
        RQ.RELEASE_SCALAR_SQL,
        RQ.KIT_GAP_SQL,
      ],
    },
  },
  {
    name: "Significance",
    path: "/significance",
    data: {
      id: "significance",
      tables: ["pairwise", "paper_comparison"],
      queries: [
        Q.PAIRWISE_KEYS_SQL,
        { sql: Q.PAIRWISE_SQL, params: defaultPairwiseKey },
        RQ.RELEASE_PAIRWISE_COUNT_SQL,
        { sql: RQ.RELEASE_PAIRWISE_SQL, params: defaultPairwiseKey },
        RQ.RELEASE_PAIRWISE_FLAGGED_SQL,
      ],
    },
  },
  { name: "Your models", path: "/your_models" },
  {
    name: "Closing the gap",
    path: "/closing_the_gap",
    data: {
      id: "closing_the_gap",
      tables: [
        "metrics",
        "pairwise",
        "rerank_cost",
        "rerank_times",
        "rerank_rankings",
        "test_split",
      ],
      queries: [
        G.RERANK_COST_SQL,
        { sql: G.EXEC_AT_K_SQL, params: () => Promise.resolve([[1]]) },
        { sql: G.EXEC_PAIRS_SQL, params: () => Promise.resolve([[1]]) },
        G.RESIDUAL_MISSES_SQL,
        G.TEST_SPLIT_SQL,
      ],
    },
  },
  {
    name: "Explorer",
    path: "/explorer",
    // The query list, and the first query's worked example (the page's first
    // view); another query is read from DuckDB-wasm once a visitor picks it.
    data: {
      id: "explorer",
      tables: ["queries", "corpus", "outcomes", "rankings"],
      queries: [
        Q.QUERY_LIST_SQL,
        ...[Q.QUERY_SNIPPETS_SQL, Q.QUERY_OUTCOMES_SQL, Q.QUERY_SCORES_SQL, Q.QUERY_TOP_SQL].map(
          (sql) => ({
            sql,
            params: async (run: RunQuery) =>
              (await run(Q.QUERY_LIST_SQL)).slice(0, 1).map((d) => [d.query_id as string]),
          }),
        ),
      ],
    },
  },
  { name: "SQL", path: "/sql" },
  { name: "Methods", path: "/methods" },
  {
    name: "Release audit",
    path: "/audit",
    data: {
      id: "audit",
      tables: [
        "paper_comparison",
        "ranking_agreement",
        "oracle_agreement",
        "oracle_disagreements",
        "validation",
        "release_findings",
        "release_mutations",
        "oracle_not_in_release",
      ],
      queries: [
        RQ.RELEASE_STATUS_SQL,
        RQ.RANKING_AGREEMENT_SQL,
        RQ.ORACLE_AGREEMENT_SQL,
        RQ.RELEASE_FLAGGED_SQL,
        RQ.RELEASE_FINDINGS_SQL,
        RQ.ORACLE_DISAGREEMENTS_SQL,
        RQ.NOT_IN_RELEASE_GATES_SQL,
        RQ.RELEASE_MUTATIONS_SQL,
      ],
    },
  },
];
