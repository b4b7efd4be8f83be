/**
 * The SQL behind the report's tables and figures. Each query runs unchanged in
 * the browser (DuckDB-wasm over the Arrow streams) and in the tests (DuckDB
 * node-api over the Parquet copies), so what a page shows is checked against
 * the tables without a browser. Parameters are `$1`, `$2`, … .
 *
 * Definitions used throughout (as in the paper):
 * - a query's canonical is its own task's `correct` snippet; every other
 *   snippet at rank 1 is a rank-1 miss;
 * - a miss is attributed to the query's own distractors (by bug type) or to
 *   another task's snippet;
 * - the canonical is "below a distractor" when one of its own distractors
 *   has a strictly higher score;
 * - a distractor "fools" the retriever when it is ranked above its canonical.
 *
 * Where a query lists metrics (the leaderboard's), the names come from the
 * metric registry (src/score/metrics/metric_registry.ts); SQL about one metric names it.
 */
import { METRIC_REGISTRY, metricLabel } from "../../score/metrics/metric_registry.ts";
import type { MetricEntry } from "../../score/metrics/metric.ts";
import { BOARD_SQL } from "./board.ts";

/** Best config by exec@1 with its exec@1 and exec at the largest k, with intervals. */
export const HEADLINE_SQL = `
WITH e AS (SELECT config, k, value, ci_low, ci_high FROM metrics WHERE metric = 'exec'),
     top AS (SELECT max(k) AS k FROM e)
SELECT a.config,
       a.value AS exec1, a.ci_low AS exec1_low, a.ci_high AS exec1_high,
       b.k AS top_k,
       b.value AS exec_top, b.ci_low AS exec_top_low, b.ci_high AS exec_top_high
FROM e a JOIN e b ON a.config = b.config JOIN top ON b.k = top.k
WHERE a.k = 1
ORDER BY a.value DESC, a.config
LIMIT 1`;

/** Per config: queries, rank-1 misses, and how many of those are the query's own distractors. */
export const MISS_SHARE_SQL = `
SELECT config,
       count(*) AS queries,
       count(*) FILTER (WHERE NOT (label = 'correct' AND own_task)) AS misses,
       count(*) FILTER (WHERE label = 'incorrect' AND own_task) AS own_distractor_misses,
       CASE WHEN count(*) FILTER (WHERE NOT (label = 'correct' AND own_task)) = 0 THEN NULL
            ELSE count(*) FILTER (WHERE label = 'incorrect' AND own_task)
                 / count(*) FILTER (WHERE NOT (label = 'correct' AND own_task)) END AS own_share
FROM rankings
WHERE rank = 1
GROUP BY config
ORDER BY config`;

/** Per config: share of queries whose canonical scores below at least one of its own distractors. */
export const CANONICAL_BELOW_SQL = `
WITH c AS (SELECT config, query_id, score FROM rankings WHERE label = 'correct' AND own_task),
     d AS (SELECT config, query_id, max(score) AS best
           FROM rankings WHERE label = 'incorrect' AND own_task GROUP BY config, query_id)
SELECT c.config,
       count(*) AS queries,
       count(*) FILTER (WHERE d.best > c.score) AS below,
       count(*) FILTER (WHERE d.best > c.score) / count(*) AS share
FROM c LEFT JOIN d ON c.config = d.config AND c.query_id = d.query_id
GROUP BY c.config
ORDER BY c.config`;

/**
 * The scoring stage's exact diagnostics, aggregated with intervals by the
 * stats stage: the share of rank-1 misses that are the query's own
 * distractors (over missed queries) and the share of queries whose canonical
 * scores below one of its distractors. Unlike the rankings-based queries
 * above, these see distractors below rank 10 too; pages prefer them.
 */
export const SHARES_SQL = `
SELECT config, metric, value, ci_low, ci_high, n
FROM metrics
WHERE metric IN ('miss_own_distractor', 'below_distractor')
ORDER BY config, metric`;

/** Fool rate per config and bug type from the stats stage (mean per-query share, with interval). */
export const OUTRANK_SQL = `
SELECT config, substr(metric, 9) AS bug_type, value AS fool_rate, ci_low, ci_high, n
FROM metrics
WHERE metric LIKE 'outrank:%'
ORDER BY config, bug_type`;

/** The leaderboard's columns: the registry's metrics marked `leaderboard`, in its order. */
export const LEADERBOARD_METRICS: readonly MetricEntry[] = METRIC_REGISTRY.filter((m) =>
  m.leaderboard
);

/**
 * The leaderboard's column headers at cutoff k, by metric name (`exec` →
 * `exec@3`), from the registry's labels.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   leaderboardHeader(3),
 *   { exec: "exec@3", precision: "precision@3", ndcg: "nDCG@3", gap: "gap@3" },
 * );
 * ```
 */
export function leaderboardHeader(k: number): Record<string, string> {
  return Object.fromEntries(LEADERBOARD_METRICS.map((m) => [m.name, metricLabel(m, k)]));
}

/** Metric names as an SQL list (`'exec', 'precision'`); names are plain identifiers. */
function sqlNames(entries: readonly MetricEntry[]): string {
  return entries.map((m) => {
    if (!/^[a-z][a-z0-9_]*$/.test(m.name)) {
      throw new Error(`metric name ${m.name}: not an identifier`);
    }
    return `'${m.name}'`;
  }).join(", ");
}

/** Every release snippet's oracle agreement flag (the overview's count). */
export const ORACLE_AGREE_SQL = "SELECT agree FROM oracle_agreement";

/** The oracle's gate counts, as written. */
export const VALIDATION_ROWS_SQL = "SELECT * FROM validation";

/** Canonicals whose slowest test came within a tenth of the time limit, nearest first. */
export const LIMIT_MARGINS_SQL = "SELECT * FROM limit_margins ORDER BY share DESC, task_id";

/**
 * The rejects of one stage ($1) for one reason ($2, the reason's text before
 * its first colon, as {@link REJECT_REASONS_SQL} groups them).
 */
export const REJECT_ROWS_SQL = `
SELECT * FROM rejects WHERE stage = $1 AND split_part(reason, ':', 1) = $2
ORDER BY source, locator`;

/**
 * The largest group of rejects ({@link REJECT_REASONS_SQL}) whose rows the
 * Benchmark page gets with its build-time data; a larger one (the default
 * run's 14,000 candidates not needed) is read from DuckDB-wasm when a visitor
 * picks it, so the page's first view stays small.
 */
export const REJECT_ROWS_AT_BUILD = 2000;

/** Long rows of the leaderboard metrics at one k ($1). */
export const LEADERBOARD_SQL = `
SELECT config, metric, k, value, ci_low, ci_high, n
FROM metrics
WHERE k = $1 AND metric IN (${sqlNames(LEADERBOARD_METRICS)})
ORDER BY config, metric`;

/** exec@k ($2) per source or domain ($1 = 'source' | 'domain'), from the stats stage's breakdowns. */
export const BREAKDOWN_SQL = `
SELECT config, "group", value, ci_low, ci_high, n
FROM breakdowns
WHERE group_by = $1 AND metric = 'exec' AND k = $2
ORDER BY "group", config`;

/** The cutoffs the run reports. */
export const KS_SQL = `SELECT DISTINCT k FROM metrics WHERE metric = 'exec' ORDER BY k`;

/** exec@k for every config and k, with intervals (the exec@k curve). */
export const EXEC_CURVE_SQL = `
SELECT config, k, value, ci_low, ci_high
FROM metrics WHERE metric = 'exec' ORDER BY config, k`;

/** How often the canonical lands at each rank, per config (ranks above 10 pooled as 11). */
export const CANONICAL_RANK_SQL = `
SELECT config, least(rank, 11) AS rank, count(*) AS queries
FROM rankings WHERE label = 'correct' AND own_task
GROUP BY config, least(rank, 11)
ORDER BY config, rank`;

/**
 * Per (config, query): canonical score minus its best-scoring own distractor,
 * from the `margins` table (the `margin` rows of per_query, cut at build time).
 */
export const MARGIN_SQL = `
SELECT config, query_id, value AS margin
FROM margins WHERE metric = 'margin'
ORDER BY config, query_id`;

/**
 * The margins figure's boxes, per config: quartiles, median, range and the
 * config's largest |margin| (the scale its box is drawn on), so the page
 * gets a row per config rather than one per query.
 */
export const MARGIN_BOX_SQL = `
WITH m AS (SELECT config, value AS margin FROM margins WHERE metric = 'margin' AND isfinite(value))
SELECT config,
       count(*) AS n,
       greatest(max(abs(margin)), 1e-12) AS scale,
       min(margin) AS lo,
       quantile_cont(margin, 0.25) AS q1,
       median(margin) AS med,
       quantile_cont(margin, 0.75) AS q3,
       max(margin) AS hi
FROM m GROUP BY config ORDER BY config`;

/**
 * The margins histogram, per config: 20 equal bins over its range, each
 * with its queries below zero and at or above it.
 */
export const MARGIN_BINS_SQL = `
WITH m AS (SELECT config, value AS margin FROM margins WHERE metric = 'margin' AND isfinite(value)),
     r AS (SELECT config, min(margin) AS lo,
                  CASE WHEN max(margin) = min(margin) THEN 1 ELSE (max(margin) - min(margin)) / 20 END AS width
           FROM m GROUP BY config),
     b AS (SELECT m.config, r.lo, r.width, m.margin,
                  least(19, floor((m.margin - r.lo) / r.width))::INTEGER AS bin
           FROM m JOIN r ON m.config = r.config)
SELECT config, bin,
       lo + bin * width AS bin_start,
       lo + (bin + 1) * width AS bin_end,
       CASE WHEN margin < 0 THEN 'below' ELSE 'above' END AS side,
       count(*) AS queries
FROM b GROUP BY config, bin, lo, width, side
ORDER BY config, bin, side`;

/**
 * Fool rate per config and bug type: of a query's own distractors of that
 * type (from the corpus), the share ranked above the canonical. A distractor
 * missing from the rankings is below rank 10 and so below any canonical in
 * the top 10; when the canonical itself is below 10, such a distractor counts
 * as not fooling (a lower bound).
 */
export const FOOL_RATE_SQL = `
WITH c AS (SELECT config, query_id, rank FROM rankings WHERE label = 'correct' AND own_task),
     pool AS (SELECT q.query_id, x.corpus_id, x.bug_type
              FROM queries q JOIN corpus x ON x.task_id = q.task_id
              WHERE x.label = 'incorrect'),
     r AS (SELECT config, query_id, corpus_id, rank FROM rankings WHERE own_task AND label = 'incorrect')
SELECT c.config, pool.bug_type,
       count(*) AS distractors,
       count(*) FILTER (WHERE r.rank < c.rank) AS fooled,
       count(*) FILTER (WHERE r.rank < c.rank) / count(*) AS fool_rate
FROM c JOIN pool ON pool.query_id = c.query_id
LEFT JOIN r ON r.config = c.config AND r.query_id = c.query_id AND r.corpus_id = pool.corpus_id
GROUP BY c.config, pool.bug_type
ORDER BY c.config, pool.bug_type`;

/** What sits at rank 1 when the canonical does not, per config. */
export const MISS_ATTRIBUTION_SQL = `
SELECT config,
       CASE WHEN own_task THEN 'own distractor: ' || bug_type
            WHEN label = 'correct' THEN 'other task: canonical'
            ELSE 'other task: distractor' END AS cause,
       count(*) AS misses
FROM rankings
WHERE rank = 1 AND NOT (label = 'correct' AND own_task)
GROUP BY ALL
ORDER BY config, cause`;

/** Pairwise comparisons for one metric ($1) and k ($2). */
export const PAIRWISE_SQL = `
SELECT config_a, config_b, a_rate, b_rate, delta, ci_low, ci_high,
       a_only, b_only, "both", neither, p_mcnemar, p_holm
FROM pairwise WHERE metric = $1 AND k = $2
ORDER BY config_a, config_b`;

/** Metrics and cutoffs that have pairwise tests. */
export const PAIRWISE_KEYS_SQL = `SELECT DISTINCT metric, k FROM pairwise ORDER BY metric, k`;

/** Queries and distractors per source and domain. */
export const DATASET_SQL = `
SELECT source, domain, count(*) AS queries, CAST(sum(len(distractor_ids)) AS INTEGER) AS distractors
FROM queries GROUP BY source, domain ORDER BY source, domain`;

/** Distractors per bug type and source. */
export const BUG_MIX_SQL = `
SELECT bug_type, source, count(*) AS distractors
FROM corpus WHERE label = 'incorrect'
GROUP BY bug_type, source ORDER BY bug_type, source`;

/** How many queries have 0, 1, … distractors. */
export const DISTRACTORS_PER_TASK_SQL = `
SELECT len(distractor_ids) AS distractors, count(*) AS queries
FROM queries GROUP BY len(distractor_ids) ORDER BY distractors`;

/** Rejects counted by stage and reason (the text before the first colon). */
export const REJECT_REASONS_SQL = `
SELECT stage, split_part(reason, ':', 1) AS reason, count(*) AS rejects
FROM rejects GROUP BY ALL ORDER BY stage, rejects DESC, reason`;

/** Every query for the explorer's picker. */
export const QUERY_LIST_SQL = `
SELECT query_id, source, domain, query, entry_point, len(distractor_ids) AS distractors
FROM queries ORDER BY query_id`;

/** The canonical and distractors of one query ($1), canonical first. */
export const QUERY_SNIPPETS_SQL = `
SELECT x.corpus_id, x.label, x.bug_type, x.operator, x.line, x.before, x.after,
       x.timeout_only, x.code, x.code_sha256
FROM corpus x JOIN queries q ON x.task_id = q.task_id
WHERE q.query_id = $1
ORDER BY x.label, x.corpus_id`;

/** Test outcomes of one query's ($1) snippets (the build-time `outcomes` table). */
export const QUERY_OUTCOMES_SQL = `
SELECT o.corpus_id, o.test_index, o.outcome, o.ms
FROM outcomes o JOIN corpus x ON o.corpus_id = x.corpus_id
JOIN queries q ON x.task_id = q.task_id
WHERE q.query_id = $1
ORDER BY o.corpus_id, o.test_index`;

/** Every config's rank and score for one query's ($1) own snippets. */
export const QUERY_SCORES_SQL = `
SELECT config, corpus_id, rank, score, label, bug_type, tie
FROM rankings WHERE query_id = $1 AND own_task
ORDER BY config, rank`;

/** The top 3 of every config for one query ($1), own task or not. */
export const QUERY_TOP_SQL = `
SELECT config, rank, corpus_id, score, label, own_task
FROM rankings WHERE query_id = $1 AND rank <= 3
ORDER BY config, rank`;

/** Every query the report runs, by name (tests run them all). */
export const REPORT_QUERIES: Record<string, { sql: string; params?: (string | number)[] }> = {
  HEADLINE_SQL: { sql: HEADLINE_SQL },
  MISS_SHARE_SQL: { sql: MISS_SHARE_SQL },
  CANONICAL_BELOW_SQL: { sql: CANONICAL_BELOW_SQL },
  SHARES_SQL: { sql: SHARES_SQL },
  OUTRANK_SQL: { sql: OUTRANK_SQL },
  LEADERBOARD_SQL: { sql: LEADERBOARD_SQL, params: [1] },
  KS_SQL: { sql: KS_SQL },
  BREAKDOWN_SQL: { sql: BREAKDOWN_SQL, params: ["domain", 1] },
  EXEC_CURVE_SQL: { sql: EXEC_CURVE_SQL },
  CANONICAL_RANK_SQL: { sql: CANONICAL_RANK_SQL },
  MARGIN_SQL: { sql: MARGIN_SQL },
  MARGIN_BOX_SQL: { sql: MARGIN_BOX_SQL },
  MARGIN_BINS_SQL: { sql: MARGIN_BINS_SQL },
  FOOL_RATE_SQL: { sql: FOOL_RATE_SQL },
  MISS_ATTRIBUTION_SQL: { sql: MISS_ATTRIBUTION_SQL },
  PAIRWISE_SQL: { sql: PAIRWISE_SQL, params: ["exec", 1] },
  PAIRWISE_KEYS_SQL: { sql: PAIRWISE_KEYS_SQL },
  DATASET_SQL: { sql: DATASET_SQL },
  BUG_MIX_SQL: { sql: BUG_MIX_SQL },
  DISTRACTORS_PER_TASK_SQL: { sql: DISTRACTORS_PER_TASK_SQL },
  REJECT_REASONS_SQL: { sql: REJECT_REASONS_SQL },
  REJECT_ROWS_SQL: { sql: REJECT_ROWS_SQL, params: ["oracle", "equivalent"] },
  LIMIT_MARGINS_SQL: { sql: LIMIT_MARGINS_SQL },
  BOARD_SQL: { sql: BOARD_SQL },
  QUERY_LIST_SQL: { sql: QUERY_LIST_SQL },
  QUERY_SNIPPETS_SQL: { sql: QUERY_SNIPPETS_SQL, params: ["builtin/clamp"] },
  QUERY_OUTCOMES_SQL: { sql: QUERY_OUTCOMES_SQL, params: ["builtin/clamp"] },
  QUERY_SCORES_SQL: { sql: QUERY_SCORES_SQL, params: ["builtin/clamp"] },
  QUERY_TOP_SQL: { sql: QUERY_TOP_SQL, params: ["builtin/clamp"] },
};
