/**
 * The Leaderboard page's board: one row per model of the `leaderboard`
 * table (the kit's configs, the paper's released systems, the verified
 * entries of the committed leaderboard), with each entry's metadata from
 * `board_entries`. Every value is shown as text.
 *
 * @module
 */

/** The board, best exec@1 first, with each entry's metadata (null for the kit's and the paper's). */
export const BOARD_SQL = `
SELECT l.config, l.kind, l.model, l.level, l.exec1, l.exec1_ci_low, l.exec1_ci_high,
  l.exec10, l.exec10_ci_low, l.exec10_ci_high, l.rank, l.rank_ci_low, l.rank_ci_high,
  l.conservative_rank, l.separable_from, l.run_path, l.meta_path,
  e.revision, e.provider, e.submitted_by, e.date, e.spot_queries, e.spot_rank1_agreement
FROM leaderboard l LEFT JOIN board_entries e USING (config)
ORDER BY l.exec1 DESC, l.config`;

/** One row of {@link BOARD_SQL} as the page shows it. */
export interface BoardLine {
  model: string;
  config: string;
  kind: string;
  level: string;
  exec1: string;
  exec10: string;
  rank: string;
  conservative: number;
  separable: number;
  separableFrom: string;
  submitted: string;
  run: string | null;
  meta: string | null;
}

const pct = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(3) : "–");

/**
 * Shape the board's rows for the page's table; `source` is the address a
 * repository path is appended to for links (null: paths shown as text).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { boardLines } from "./board.ts";
 * const [line] = boardLines([{
 *   config: "mine", kind: "entry", model: "org/m", level: "scored", exec1: 0.25,
 *   exec1_ci_low: 0.2, exec1_ci_high: 0.3, exec10: 0.9, exec10_ci_low: 0.85, exec10_ci_high: 0.95,
 *   rank: 2, rank_ci_low: 1, rank_ci_high: 3, conservative_rank: 1, separable_from: ["bm25"],
 *   run_path: "leaderboard/default/mine/run.trec.gz", meta_path: "leaderboard/default/mine/meta.json",
 *   revision: "1", provider: "openai", submitted_by: "me", date: "2026-12-07",
 * }], "https://github.com/o/r/blob/abc");
 * deepStrictEqual([line.exec1, line.rank, line.separableFrom, line.run], [
 *   "0.250 [0.200, 0.300]", "2 [1–3]", "bm25",
 *   "https://github.com/o/r/blob/abc/leaderboard/default/mine/run.trec.gz",
 * ]);
 * ```
 */
export function boardLines(rows: Record<string, unknown>[], source: string | null): BoardLine[] {
  const link = (path: unknown) =>
    typeof path === "string" ? (source ? `${source.replace(/\/$/, "")}/${path}` : path) : null;
  return rows.map((r) => {
    const separable = Array.isArray(r.separable_from) ? r.separable_from.map(String) : [];
    return {
      model: String(r.model),
      config: String(r.config),
      kind: String(r.kind),
      level: String(r.level),
      exec1: `${pct(r.exec1)} [${pct(r.exec1_ci_low)}, ${pct(r.exec1_ci_high)}]`,
      exec10: `${pct(r.exec10)} [${pct(r.exec10_ci_low)}, ${pct(r.exec10_ci_high)}]`,
      rank: `${r.rank} [${r.rank_ci_low}–${r.rank_ci_high}]`,
      conservative: Number(r.conservative_rank),
      separable: separable.length,
      separableFrom: separable.join(", "),
      submitted: r.submitted_by ? `${r.submitted_by}, ${r.date} (revision ${r.revision})` : "",
      run: link(r.run_path),
      meta: link(r.meta_path),
    };
  });
}
