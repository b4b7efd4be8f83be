import type { TableSpec } from "../io/arrow_table.ts";

/**
 * The `audit` table: one row per released number checked against the kit's
 * recomputation from the released rankings (and, in summary rows, the
 * re-execution and mutation comparisons).
 */
export const AUDIT: TableSpec = {
  section: "utf8", // metrics | leaderboard | intervals | pairwise | executions | relevance | mutations
  subject: "utf8", // a model, a pair "A vs B", or "all"
  metric: "utf8", // released family: exec | precision | ndcg | exec_ndcg_gap | ...
  k: "int32", // 0 when the number has no cutoff
  quantity: "utf8", // what the number is: value, ci95_low, a_only, mcnemar_exact_p, ...
  released: "float64",
  recomputed: "float64", // null when the kit cannot recompute it
  tolerance: "float64", // accepted |released − recomputed|
  match: "bool", // null when not recomputed
  locator: "utf8", // the released file and key the number comes from
};

/** One row of {@link AUDIT}. */
export interface AuditRow {
  section: string;
  subject: string;
  metric: string;
  k: number;
  quantity: string;
  released: number;
  recomputed: number | null;
  tolerance: number | null;
  match: boolean | null;
  locator: string;
}

/** A row for a count that must match exactly (no cutoff, no tolerance). */
export function exactCountRow(
  section: string,
  subject: string,
  quantity: string,
  expected: number,
  found: number,
  locator: string,
): AuditRow {
  return {
    section,
    subject,
    metric: "",
    k: 0,
    quantity,
    released: expected,
    recomputed: found,
    tolerance: 0,
    match: expected === found,
    locator,
  };
}

/** Counts for the summary line. */
export interface AuditSummary {
  checked: number;
  matched: number;
  mismatched: number;
  unchecked: number;
}

/**
 * Sections that compare rather than check: how many released distractors the
 * kit's mutation engine reproduces is a finding about two generators, not a
 * released number that must match, so its rows count in no total.
 */
export const COMPARISON_SECTIONS: ReadonlySet<string> = new Set(["mutations"]);

/** Count checked, matched, mismatched and unchecked rows (comparison rows aside). */
export function summarizeAudit(rows: readonly AuditRow[]): AuditSummary {
  let matched = 0;
  let mismatched = 0;
  let unchecked = 0;
  for (const r of rows) {
    if (COMPARISON_SECTIONS.has(r.section)) continue;
    if (r.match === null) unchecked++;
    else if (r.match) matched++;
    else mismatched++;
  }
  return { checked: matched + mismatched, matched, mismatched, unchecked };
}

/** A mismatch as one line naming where the released number is. */
export function mismatchLine(r: AuditRow): string {
  const got = r.recomputed === null ? "not recomputable" : `recomputed ${r.recomputed}`;
  const tol = r.tolerance === null ? "" : ` (tolerance ${r.tolerance.toPrecision(3)})`;
  return `${r.locator}: released ${r.released}, ${got}${tol}`;
}
