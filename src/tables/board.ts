import { type RowOf, tableSpec } from "../io/arrow_table.ts";

/** Prefix of the config names of the release's saved embeddings (the paper's systems). */
export const RELEASED_PREFIX = "paper-";

// The leaderboard stage's own tables (src/leaderboard/); its rankings and per_query
// rows use RANKINGS and PER_QUERY, under each entry's config name.

/** `board_entries`: one row per leaderboard entry of this run's benchmark that was verified. */
export const BOARD_ENTRIES = tableSpec({
  config: "utf8", // the entry's folder name: its config name on the board
  benchmark: "utf8",
  model: "utf8",
  revision: "utf8",
  provider: "utf8",
  invocation: "utf8", // the entry's invocation, as JSON
  submitted_by: "utf8",
  date: "utf8",
  kit_version: "utf8",
  level: "utf8", // re-embedded | scored
  own_scored: "bool", // the run gave every query's own canonical and distractors
  spot_queries: "int32?", // the spot check's sample, when it ran
  spot_rank1_agreement: "float64?",
  spot_top10_overlap: "float64?",
  run_path: "utf8", // leaderboard/<benchmark>/<name>/<file>, as in the repository
  meta_path: "utf8",
  run_sha256: "utf8",
});
/** One row of {@link BOARD_ENTRIES}. */
export type BoardEntryRow = RowOf<typeof BOARD_ENTRIES>;

/**
 * `leaderboard`: one row per model on this run's board (the kit's configs,
 * the paper's released systems, the verified entries), with exec@1 and
 * exec@10 and their 95% intervals, the rank by exec@1 with its 95% bootstrap
 * interval (as `model_ranks`), LMArena's conservative rank (1 + the number
 * of models whose lower bound is above this one's upper bound), and the
 * models it is separable from by exact McNemar at exec@1 (Holm-adjusted p
 * below 0.05 over every pair on the board).
 */
export const LEADERBOARD = tableSpec({
  config: "utf8",
  kind: "utf8", // kit | paper | entry
  model: "utf8",
  level: "utf8", // kit | paper (computed by the kit) | re-embedded | scored
  exec1: "float64",
  exec1_ci_low: "float64",
  exec1_ci_high: "float64",
  exec10: "float64?",
  exec10_ci_low: "float64?",
  exec10_ci_high: "float64?",
  rank: "int32",
  rank_ci_low: "int32",
  rank_ci_high: "int32",
  conservative_rank: "int32",
  separable_from: "utf8_list",
  run_path: "utf8?",
  meta_path: "utf8?",
});
/** One row of {@link LEADERBOARD}. */
export type LeaderboardRow = RowOf<typeof LEADERBOARD>;
