/**
 * SQL the pages run over a release run's comparison tables (DuckDB in the
 * browser). On a default run the tables are empty, and so are the results.
 */

/** Leaderboard and gap cells: the released metrics and intervals beside the kit's. */
export const RELEASE_SCALAR_SQL = `
SELECT section, config, metric, k, quantity, released, kit, status, flagged, locator
FROM paper_comparison WHERE section IN ('metric', 'interval')`;

/** Released pairwise numbers for one metric ($1) and k ($2). */
export const RELEASE_PAIRWISE_SQL = `
SELECT section, config, config_b, metric, k, quantity, released, kit, status, flagged, locator
FROM paper_comparison WHERE section = 'pairwise' AND metric = $1 AND k = $2`;

/** Flagged released pairwise numbers at every metric and k (for the page's count). */
export const RELEASE_PAIRWISE_FLAGGED_SQL = `
SELECT section, config, config_b, metric, k, quantity, released, kit, status, flagged
FROM paper_comparison WHERE section = 'pairwise' AND flagged`;

/** Every row's status, for the Overview's count (no locators: they are long). */
export const RELEASE_STATUS_SQL = `SELECT section, status, flagged FROM paper_comparison`;

/** Ranking agreement per released system. */
export const RANKING_AGREEMENT_SQL = `SELECT * FROM ranking_agreement ORDER BY kit_own, config`;

/** The kit's own gap per config and k (the Functional-gap page's comparison). */
export const KIT_GAP_SQL = `
SELECT config, k, value FROM metrics WHERE metric = 'gap' ORDER BY config, k`;

/** The released systems' headline metrics (the Overview's release section). */
export const RELEASE_HEADLINE_SQL = `
SELECT config, metric, k, value, ci_low, ci_high, n FROM metrics
WHERE config LIKE 'paper-%' AND metric IN ('exec', 'miss_own_distractor', 'below_distractor')`;

/** Per released snippet: does the kit's sandbox agree with the release's cache? */
export const ORACLE_AGREEMENT_SQL = `
SELECT label, agree, tests, tests_agreeing, released_pass
FROM oracle_agreement ORDER BY query_id, corpus_id`;

/** Every test whose outcome the kit and the release disagree on. */
export const ORACLE_DISAGREEMENTS_SQL = `
SELECT * FROM oracle_disagreements ORDER BY query_id, corpus_id, test_index`;

/** The kit's mutation engine against each released distractor. */
export const RELEASE_MUTATIONS_SQL = `
SELECT released_bug_type, reproduced, same_bug_type
FROM release_mutations ORDER BY task_id, corpus_id`;

/** How many released pairwise numbers the run has (0 outside a release run). */
export const RELEASE_PAIRWISE_COUNT_SQL = `
SELECT CAST(COUNT(*) AS INTEGER) AS n FROM paper_comparison WHERE section = 'pairwise'`;

/** Every released number the kit does not regenerate, with where it is. */
export const RELEASE_FLAGGED_SQL = `
SELECT section, model, model_b, metric, k, quantity, released, kit, status, locator
FROM paper_comparison WHERE flagged ORDER BY section, config, config_b, metric, k, quantity`;

/** What the reader noticed in the bundle without refusing it. */
export const RELEASE_FINDINGS_SQL = `
SELECT file, place, kind, documented, count, example FROM release_findings
ORDER BY documented DESC, file, place, kind`;

/** The oracle's counts of the pairs a released top 10 lists with no outcomes, run by the kit. */
export const NOT_IN_RELEASE_GATES_SQL = `
SELECT gate, count FROM validation WHERE gate LIKE 'not_in_release_%'`;
