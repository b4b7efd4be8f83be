/**
 * The paper's released numbers beside the kit's, shaped for the Leaderboard,
 * Significance and Functional-gap pages of a release run (from the compare
 * stage's `paper_comparison` table). A page cell the release reports becomes
 * a {@link ReleaseCell}: the released numbers in the page's orientation and
 * whether any of them differs beyond the released precision.
 */
import type { PaperComparisonRow } from "../../tables/release.ts";

/**
 * The columns of a `paper_comparison` row (spec in src/tables/release.ts)
 * the pages use; `config_b`, `kit` and `locator` may be left out.
 */
export type ComparisonRow =
  & Pick<
    PaperComparisonRow,
    "section" | "config" | "metric" | "k" | "quantity" | "released" | "status" | "flagged"
  >
  & Partial<Pick<PaperComparisonRow, "config_b" | "kit" | "locator">>;

/** How a page cell stands against the release. */
export type CellStatus = "equal" | "differs" | "missing" | "kit_own";

/** The release's side of one page cell. */
export interface ReleaseCell {
  /** Released numbers by quantity (value, ci_low, ci_high, delta, …), in the page's orientation. */
  released: Record<string, number | null>;
  status: CellStatus;
  /** Some number of the cell differs beyond the released precision, or the kit lacks it. */
  flagged: boolean;
  /** One line per flagged number: quantity, both values and where the release has it. */
  notes: string[];
}

/** What a page draws for a cell: a CSS class, the released text, a marker, a tooltip. */
export interface CellView {
  className: "flagged" | "kit-own" | "release-equal";
  released: string;
  marker: string;
  title: string;
}

const SEP = "\u0000";
/** Leaderboard quantities in the order they are written ("value [low, high]"). */
const SCALAR_SECTIONS = new Set(["metric", "interval"]);

/** Folds the rows of one cell into a {@link ReleaseCell}. */
function foldCell(
  rows: readonly { row: ComparisonRow; quantity: string; released: number | null }[],
): ReleaseCell {
  const released: Record<string, number | null> = {};
  const notes: string[] = [];
  let flagged = false;
  let differs = false;
  let kitOwn = rows.length > 0;
  for (const { row, quantity, released: value } of rows) {
    // A metric row and an interval row may both give the point value; the results file's wins.
    if (!(quantity in released) || row.section === "metric") released[quantity] = value;
    if (row.status !== "kit_own") kitOwn = false;
    if (row.flagged) {
      flagged = true;
      if (row.status === "differs") differs = true;
      notes.push(
        `${row.quantity}: released ${row.released ?? "–"}, kit ${row.kit ?? "none"}${
          row.locator ? ` (${row.locator})` : ""
        }`,
      );
    }
  }
  const status: CellStatus = flagged
    ? (differs ? "differs" : "missing")
    : kitOwn
    ? "kit_own"
    : "equal";
  return { released, status, flagged, notes };
}

function groupCells<K>(
  rows: readonly ComparisonRow[],
  place: (row: ComparisonRow) => { key: K; quantity: string; released: number | null } | null,
  keyString: (key: K) => string,
): Map<string, ReleaseCell> {
  const groups = new Map<
    string,
    { row: ComparisonRow; quantity: string; released: number | null }[]
  >();
  for (const row of rows) {
    const at = place(row);
    if (!at) continue;
    const id = keyString(at.key);
    const list = groups.get(id) ?? [];
    list.push({ row, quantity: at.quantity, released: at.released });
    groups.set(id, list);
  }
  return new Map([...groups].map(([id, list]) => [id, foldCell(list)]));
}

/** Key of a Leaderboard (or gap) cell. */
export function scalarKey(config: string, metric: string, k: number): string {
  return [config, metric, k].join(SEP);
}

/**
 * Leaderboard cells the release reports, keyed by {@link scalarKey}: per
 * config, metric and k, the released value (the results file's, else the
 * interval file's mean) and interval, from the `metric` and `interval` rows.
 */
export function leaderboardCells(rows: readonly ComparisonRow[]): Map<string, ReleaseCell> {
  return groupCells(
    rows,
    (r) =>
      SCALAR_SECTIONS.has(r.section)
        ? { key: scalarKey(r.config, r.metric, r.k), quantity: r.quantity, released: r.released }
        : null,
    (key) => key,
  );
}

/** Columns of the Significance table a released pairwise number belongs to. */
const PAIR_COLUMN: Record<string, string> = {
  delta: "delta",
  a_rate: "delta",
  b_rate: "delta",
  ci_low: "ci_low",
  ci_high: "ci_high",
  a_only: "a_only",
  b_only: "b_only",
  both: "both",
  neither: "neither",
  p_mcnemar: "p_mcnemar",
};

/**
 * A released pairwise number seen from the other side of the pair: A − B
 * becomes B − A, so the difference and its interval change sign (the
 * interval's ends swap), and A's counts and rates become B's.
 */
function swapSides(
  quantity: string,
  value: number | null,
): { quantity: string; value: number | null } {
  const neg = value == null ? null : -value;
  switch (quantity) {
    case "delta":
      return { quantity, value: neg };
    case "ci_low":
      return { quantity: "ci_high", value: neg };
    case "ci_high":
      return { quantity: "ci_low", value: neg };
    case "a_only":
      return { quantity: "b_only", value };
    case "b_only":
      return { quantity: "a_only", value };
    case "a_rate":
      return { quantity: "b_rate", value };
    case "b_rate":
      return { quantity: "a_rate", value };
    default:
      return { quantity, value };
  }
}

/** Key of a Significance cell: the pair as the kit orders it, metric, k and column. */
export function pairKey(
  configA: string,
  configB: string,
  metric: string,
  k: number,
  column: string,
): string {
  return [configA, configB, metric, k, column].join(SEP);
}

/**
 * Significance cells the release reports, keyed by {@link pairKey} in the
 * orientation of the kit's `pairwise` rows (`kitPairs`: its config_a /
 * config_b pairs). A released pair written the other way round is turned
 * to the kit's order (see the swap rules above), so released and kit
 * numbers sit side by side with the same sign. The rates of the pair count
 * toward the difference's cell.
 */
export function pairwiseCells(
  rows: readonly ComparisonRow[],
  kitPairs: readonly { config_a: string; config_b: string }[],
): Map<string, ReleaseCell> {
  const ordered = new Set(kitPairs.map((p) => p.config_a + SEP + p.config_b));
  return groupCells(
    rows,
    (r) => {
      if (r.section !== "pairwise" || r.config_b == null) return null;
      const asIs = ordered.has(r.config + SEP + r.config_b) ||
        !ordered.has(r.config_b + SEP + r.config);
      const [a, b] = asIs ? [r.config, r.config_b] : [r.config_b, r.config];
      const { quantity, value } = asIs
        ? { quantity: r.quantity, value: r.released }
        : swapSides(r.quantity, r.released);
      const column = PAIR_COLUMN[quantity];
      if (!column) return null;
      return { key: pairKey(a, b, r.metric, r.k, column), quantity, released: value };
    },
    (key) => key,
  );
}

/**
 * How many page cells differ from the release: distinct cells with a
 * flagged number among `rows` (any sections), as the Leaderboard
 * (`metric`, `interval`: config × metric × k) and Significance (`pairwise`:
 * pair × metric × k × column, whichever way the pair is written) pages
 * count them. Pass `sections` to count one page's cells only.
 *
 * On a faithful run, `flaggedCellCount(rows, ["metric", "interval"])` is 0.
 */
export function flaggedCellCount(
  rows: readonly ComparisonRow[],
  sections: readonly string[],
): number {
  const keys = new Set<string>();
  for (const r of rows) {
    if (!r.flagged || !sections.includes(r.section)) continue;
    if (SCALAR_SECTIONS.has(r.section)) keys.add(`s${SEP}${scalarKey(r.config, r.metric, r.k)}`);
    else if (r.section === "pairwise" && PAIR_COLUMN[r.quantity]) {
      // The pair unordered, and the column as seen from the pair's first config in name order.
      const asIs = r.config <= (r.config_b ?? "");
      const [a, b] = asIs ? [r.config, r.config_b ?? ""] : [r.config_b ?? "", r.config];
      const q = asIs ? r.quantity : swapSides(r.quantity, null).quantity;
      keys.add(`p${SEP}${pairKey(a, b, r.metric, r.k, PAIR_COLUMN[q])}`);
    }
  }
  return keys.size;
}

/** A released number as written in the release (its last digit is the point). */
export function releasedNumber(v: number | null | undefined): string {
  return v == null ? "–" : String(v);
}

/**
 * What a page shows for a cell: the released text (a value with its
 * interval when the release gives one, else the one number the column
 * holds), a marker on a flagged cell, and its class: `flagged`,
 * `kit-own` (the kit's own implementation beside the released one: shown,
 * never flagged) or `release-equal`.
 */
export function cellView(cell: ReleaseCell, quantity = "value"): CellView {
  const r = cell.released;
  const main = releasedNumber(r[quantity]);
  const released = quantity === "value" && r.ci_low != null && r.ci_high != null
    ? `paper ${main} [${releasedNumber(r.ci_low)}, ${releasedNumber(r.ci_high)}]`
    : `paper ${main}`;
  const className = cell.flagged
    ? "flagged"
    : cell.status === "kit_own"
    ? "kit-own"
    : "release-equal";
  const marker = cell.flagged
    ? (cell.status === "missing" ? "⚑ not in the kit's run" : "⚑ differs")
    : cell.status === "kit_own"
    ? "kit's own BM25"
    : "";
  const title = cell.flagged
    ? cell.notes.join("\n")
    : cell.status === "kit_own"
    ? "The kit's own implementation beside the released one: shown, not checked"
    : "Equal to the release at its precision";
  return { className, released, marker, title };
}

/**
 * The count line at the top of a page: "0 cells differ from the release",
 * "1 cell differs from the release".
 */
export function differCountText(n: number): string {
  return `${n} ${n === 1 ? "cell differs" : "cells differ"} from the release`;
}

/** The Functional-gap page's comparison: one line per config the release reports a gap for. */
export interface GapLines {
  ks: number[];
  lines: ({ config: string } & Record<string, number | string | null>)[];
}

/**
 * The kit's exec–nDCG gap per config (rows of `metrics` with metric `gap`)
 * pivoted to one line per config with a `gap_<k>` column per cutoff,
 * keeping only the configs the release reports a gap for (`cells` from
 * {@link leaderboardCells}).
 */
export function gapLines(
  kitRows: readonly { config: string; k: number; value: number | null }[],
  cells: ReadonlyMap<string, ReleaseCell>,
): GapLines {
  const kept = kitRows.filter((r) => cells.has(scalarKey(r.config, "gap", r.k)));
  const ks = [...new Set(kept.map((r) => r.k))].sort((a, b) => a - b);
  const configs = [...new Set(kept.map((r) => r.config))].sort();
  return {
    ks,
    lines: configs.map((config) => ({
      config,
      ...Object.fromEntries(
        ks.map((
          k,
        ) => [`gap_${k}`, kept.find((r) => r.config === config && r.k === k)?.value ?? null]),
      ),
    })),
  };
}
