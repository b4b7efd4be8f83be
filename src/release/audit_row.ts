import { AUDIT, type AuditRow } from "../tables/release.ts";

/** The `audit` table and its row (specs in src/tables/release.ts). */
export { AUDIT, type AuditRow };

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
