import { deletingBugTypes } from "./operator_registry.ts";

/** The one change between a canonical and a candidate. */
export interface OneEdit {
  /** 1-based line of the change in the original. */
  line: number;
  /** The changed line before (all deleted lines, "\n"-joined, for a deletion). */
  before: string;
  /** The line after; "" for a deletion. */
  after: string;
  /** Number of lines deleted (0 when one line changed in place). */
  deleted: number;
}

/**
 * Bug types whose edit deletes one whole statement: the registry's entries
 * marked `deletes` (the paper's `remove_edge_case_check`, and the
 * `missing_statement` extension).
 */
export const DELETING_TYPES: ReadonlySet<string> = deletingBugTypes();

/**
 * Recover the single edit that turns `original` into `mutated`, or null when
 * they do not differ by exactly one edit: either exactly one line changed in
 * place, or (only when `bugType` is one of {@link DELETING_TYPES} or not given)
 * one contiguous run of lines deleted with nothing added. Lines split on
 * "\n" and compare without a trailing "\r", which is not part of the reported
 * text either (so a change of line ending alone is no edit). Whether a deleted
 * run is exactly one statement needs a parse: see `verifyMutant`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   diffOneEdit("a = 1\nb = a < 2\n", "a = 1\nb = a <= 2\n"),
 *   { line: 2, before: "b = a < 2", after: "b = a <= 2", deleted: 0 },
 * );
 * ```
 */
export function diffOneEdit(original: string, mutated: string, bugType?: string): OneEdit | null {
  // Compared without line-final "\r", so deleting the last line of a CRLF file (which takes
  // the "\r\n" before it) still reads as a deletion.
  const a = original.split("\n").map(stripCr);
  const b = mutated.split("\n").map(stripCr);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  if (prefix === a.length && prefix === b.length) return null;
  let suffix = 0;
  while (
    suffix < a.length - prefix && suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) suffix++;
  const removed = a.slice(prefix, a.length - suffix);
  const added = b.slice(prefix, b.length - suffix);
  if (removed.length === 1 && added.length === 1) {
    return { line: prefix + 1, before: removed[0], after: added[0], deleted: 0 };
  }
  const deletionAllowed = bugType === undefined || DELETING_TYPES.has(bugType);
  if (deletionAllowed && added.length === 0 && removed.length > 0) {
    return {
      line: prefix + 1,
      before: removed.join("\n"),
      after: "",
      deleted: removed.length,
    };
  }
  return null;
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
