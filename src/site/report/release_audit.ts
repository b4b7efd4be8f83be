/**
 * The Release audit page's summaries of a release run: the released numbers
 * beside the kit's by section and status, what the reader noticed in the
 * bundle (documented cases apart), and the pairs the release left without
 * outcomes that the kit ran itself.
 */

type Row = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === "number" && !Number.isNaN(v) ? v : 0);

/** One section of `paper_comparison` (metric, interval, pairwise) by status. */
export interface ComparisonLine {
  section: string;
  compared: number;
  equal: number;
  differs: number;
  missing: number;
  kit_own: number;
}

/**
 * Counts per section of `paper_comparison` rows, in the order the sections
 * first appear, then "all".
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(comparisonBySection([
 *   { section: "metric", status: "equal" },
 *   { section: "metric", status: "kit_own" },
 * ]).map((l) => [l.section, l.compared, l.equal, l.kit_own]), [
 *   ["metric", 2, 1, 1],
 *   ["all", 2, 1, 1],
 * ]);
 * ```
 */
export function comparisonBySection(rows: readonly Row[]): ComparisonLine[] {
  const line = (section: string, list: readonly Row[]): ComparisonLine => {
    const count = (status: string) => list.filter((r) => r.status === status).length;
    return {
      section,
      compared: list.length,
      equal: count("equal"),
      differs: count("differs"),
      missing: count("missing"),
      kit_own: count("kit_own"),
    };
  };
  const sections = [...new Set(rows.map((r) => String(r.section)))];
  const lines = sections.map((s) => line(s, rows.filter((r) => r.section === s)));
  return rows.length ? [...lines, line("all", rows)] : [];
}

/** How many things the reader noticed, of documented cases and of others. */
export interface FindingTotals {
  documented: number;
  other: number;
  /** Distinct (file, place, kind) rows of the others. */
  otherKinds: number;
}

/** Totals of `release_findings` rows. */
export function findingTotals(rows: readonly Row[]): FindingTotals {
  const documented = rows.filter((r) => r.documented === true);
  const other = rows.filter((r) => r.documented !== true);
  const sum = (list: readonly Row[]) => list.reduce((s, r) => s + num(r.count), 0);
  return { documented: sum(documented), other: sum(other), otherKinds: other.length };
}

/** The pairs the release left without outcomes, as the kit ran them. */
export interface NotInReleaseSummary {
  pairs: number;
  /** How many of them pass every test of the query (each would count for exec@k). */
  kitPass: number;
  /** Top-10 entries they stand for, over every results file. */
  listings: number;
}

/**
 * The summary from the oracle's `validation` counts (`not_in_release_*`
 * gates), so the page need not download one row per pair.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   notInReleaseSummary([
 *     { gate: "not_in_release_pairs", count: 3 },
 *     { gate: "not_in_release_listings", count: 5 },
 *   ]),
 *   { pairs: 3, kitPass: 0, listings: 5 },
 * );
 * ```
 */
export function notInReleaseSummary(validation: readonly Row[]): NotInReleaseSummary {
  const gate = (name: string) =>
    validation.filter((r) => r.gate === name).reduce((s, r) => s + num(r.count), 0);
  return {
    pairs: gate("not_in_release_pairs"),
    kitPass: gate("not_in_release_kit_pass"),
    listings: gate("not_in_release_listings"),
  };
}
