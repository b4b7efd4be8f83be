import type { MetricRow as MetricsTableRow, PairwiseRow, RankingRow } from "../../tables/schema.ts";

/** A long metric row as the metrics table holds it. */
export type MetricRow = Pick<
  MetricsTableRow,
  "config" | "metric" | "k" | "value" | "ci_low" | "ci_high"
>;

/** One leaderboard line: a config with each metric's value and interval at one k. */
export type LeaderboardLine = { config: string } & Record<string, number | string | null>;

/**
 * Pivot long metric rows (one k) into one line per config with columns
 * `<metric>`, `<metric>_low`, `<metric>_high`, sorted by `sortBy` descending
 * (ties by config name), so the leaderboard reads best first.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   pivotLeaderboard([{ config: "bm25", metric: "exec", k: 1, value: 0.1, ci_low: 0, ci_high: 0.2 }]),
 *   [{ config: "bm25", exec: 0.1, exec_low: 0, exec_high: 0.2 }],
 * );
 * ```
 */
export function pivotLeaderboard(rows: Iterable<MetricRow>, sortBy = "exec"): LeaderboardLine[] {
  const byConfig = new Map<string, LeaderboardLine>();
  for (const r of rows) {
    let line = byConfig.get(r.config);
    if (!line) byConfig.set(r.config, line = { config: r.config });
    line[r.metric] = r.value;
    line[`${r.metric}_low`] = r.ci_low;
    line[`${r.metric}_high`] = r.ci_high;
  }
  return [...byConfig.values()].sort((a, b) =>
    ((b[sortBy] as number) ?? -Infinity) - ((a[sortBy] as number) ?? -Infinity) ||
    a.config.localeCompare(b.config)
  );
}

/**
 * Cells of a pairwise matrix: both orientations of every tested pair, so a
 * config × config grid is filled on both sides of the diagonal (b − a is the
 * negated difference with the interval flipped).
 */
export type PairRow = Pick<
  PairwiseRow,
  "config_a" | "config_b" | "delta" | "ci_low" | "ci_high" | "p_holm" | "p_mcnemar"
>;

export interface MatrixCell {
  row: string;
  col: string;
  delta: number | null;
  ci_low: number | null;
  ci_high: number | null;
  p_holm: number | null;
  /** Holm-adjusted p < 0.05, or (without a test) an interval that excludes 0. */
  significant: boolean;
}

export function pairMatrix(rows: Iterable<PairRow>): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const r of rows) {
    const significant = r.p_holm != null
      ? r.p_holm < 0.05
      : r.ci_low != null && r.ci_high != null && (r.ci_low > 0 || r.ci_high < 0);
    const neg = (x: number | null) => x == null ? null : -x;
    cells.push(
      {
        row: r.config_a,
        col: r.config_b,
        delta: r.delta,
        ci_low: r.ci_low,
        ci_high: r.ci_high,
        p_holm: r.p_holm,
        significant,
      },
      {
        row: r.config_b,
        col: r.config_a,
        delta: neg(r.delta),
        ci_low: neg(r.ci_high),
        ci_high: neg(r.ci_low),
        p_holm: r.p_holm,
        significant,
      },
    );
  }
  return cells;
}

/** A snippet's rank and score under every config, for the explorer. */
export type ScoreRow = Pick<RankingRow, "config" | "corpus_id" | "rank" | "score">;

/**
 * One line per snippet (in the given order) with a `<config>` column per
 * config holding "#rank (score)", or "> 10" when the snippet is not in that
 * config's rankings for the query (below the top 10).
 */
export function snippetScoreGrid(
  snippets: readonly { corpus_id: string; label: string; bug_type: string | null }[],
  scores: readonly ScoreRow[],
  format: (x: number) => string = (x) => x.toFixed(3),
): Record<string, string>[] {
  const configs = [...new Set(scores.map((s) => s.config))];
  return snippets.map((s) => {
    const line: Record<string, string> = {
      snippet: s.corpus_id,
      kind: s.label === "correct" ? "canonical" : s.bug_type ?? "distractor",
    };
    for (const c of configs) {
      const r = scores.find((x) => x.config === c && x.corpus_id === s.corpus_id);
      line[c] = r ? `#${r.rank} (${format(r.score)})` : "> 10";
    }
    return line;
  });
}

/**
 * Pivot long rows to wide: one line per distinct `rowKey` value (first-seen
 * order), one column per distinct `colKey` value (first-seen order) holding
 * `valueKey`; a missing combination is null. Used for the oracle's long-form
 * gate counts (gate × source).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   pivotLong([{ gate: "g", source: "s", count: 2 }], "gate", "source", "count"),
 *   { columns: ["s"], rows: [{ gate: "g", s: 2 }] },
 * );
 * ```
 */
export function pivotLong(
  rows: readonly Record<string, unknown>[],
  rowKey: string,
  colKey: string,
  valueKey: string,
): { columns: string[]; rows: Record<string, unknown>[] } {
  const columns: string[] = [];
  const lines = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    const col = String(r[colKey]);
    if (!columns.includes(col)) columns.push(col);
    const key = String(r[rowKey]);
    if (!lines.has(key)) lines.set(key, { [rowKey]: r[rowKey] });
    lines.get(key)![col] = r[valueKey];
  }
  for (const line of lines.values()) for (const c of columns) line[c] ??= null;
  return { columns, rows: [...lines.values()] };
}
