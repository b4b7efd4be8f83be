import {
  loadPythonParser,
  type Node,
  type PythonParser,
  type Tree,
} from "../common/python_parser.ts";
import { indexNodes, oneLine } from "./operators/syntax.ts";
import type { ProposedEdit, SiteContext } from "./operator_entry.ts";
import type { OperatorEntry } from "./operator_entry.ts";
import { OPERATORS } from "./operator_registry.ts";

/** A syntactically valid single-edit variant of a canonical. */
export interface Candidate {
  /** One of the paper's six bug types, or an extension's type. */
  bug_type: string;
  /** Finer name of the edit, e.g. `lt_to_le`, `range_stop_minus_one`, `delete_guard`. */
  operator: string;
  /** True for operators beyond the paper's six (only with `extensions`). */
  extension: boolean;
  /** 1-based line of the edit in the canonical. */
  line: number;
  /** 1-based column of the edit, in UTF-16 code units. */
  column: number;
  /** That line before the edit (all deleted lines, "\n"-joined, for a deleted statement). */
  before: string;
  /** That line after the edit ("" when deleted). */
  after: string;
  /** The whole mutated source. */
  code: string;
}

/** An edit that was proposed but did not make a candidate, with the reason. */
export interface RejectedEdit {
  bug_type: string;
  operator: string;
  line: number;
  column: number;
  reason: string;
}

/** Everything one canonical yields. */
export interface MutateResult {
  candidates: Candidate[];
  rejected: RejectedEdit[];
  /** Edits whose code equalled the canonical or an earlier candidate. */
  duplicates: number;
  /** Set when the canonical itself does not parse; then there are no candidates. */
  error?: string;
}

/** Options for {@link mutateCodeWith} and {@link mutateCode}. */
export interface MutateOptions {
  /** Also run the extension operators (labelled `extension: true`). Default false. */
  extensions?: boolean;
  /**
   * The operators to apply, in this order (default {@link OPERATORS}, the
   * registry); pass `[...OPERATORS, yours]` to try an operator before it is
   * registered.
   */
  operators?: readonly OperatorEntry[];
}

/**
 * Every syntactically valid single-edit candidate of `code`, with a parser
 * already loaded (synchronous, for stages and benches that mutate many
 * canonicals). Each edit splices the original text at tree-sitter's UTF-16
 * offsets, so everything outside the edited token is byte-for-byte the
 * canonical; each result is re-parsed (incrementally) and dropped with a
 * reason if tree-sitter finds a syntax error. Candidates come grouped by bug
 * type, then in source order; a code equal to the canonical or to an earlier
 * candidate is not repeated.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { loadPythonParser } from "../common/python_parser.ts";
 * const parser = await loadPythonParser();
 * const { candidates } = mutateCodeWith(parser, "def f(x):\n    return x < 1\n");
 * strictEqual(candidates.find((c) => c.operator === "lt_to_le")!.after, "    return x <= 1");
 * ```
 */
export function mutateCodeWith(
  parser: PythonParser,
  code: string,
  options: MutateOptions = {},
): MutateResult {
  const tree = parser.parse(code);
  try {
    const broken = firstError(tree.rootNode);
    if (broken) {
      const where = locate(lineStarts(code), broken.startIndex);
      return {
        candidates: [],
        rejected: [],
        duplicates: 0,
        error:
          `canonical does not parse (syntax error at line ${where.line}, column ${where.column})`,
      };
    }
    return editAll(parser, tree, code, options);
  } finally {
    tree.delete();
  }
}

/**
 * Every syntactically valid single-edit candidate of `code` (see
 * {@link mutateCodeWith}); loads the shared parser on first use. Throws when
 * the canonical itself does not parse.
 */
export async function mutateCode(code: string, options: MutateOptions = {}): Promise<Candidate[]> {
  const result = mutateCodeWith(await loadPythonParser(), code, options);
  if (result.error) throw new Error(result.error);
  return result.candidates;
}

function editAll(
  parser: PythonParser,
  tree: Tree,
  code: string,
  options: MutateOptions,
): MutateResult {
  const entries = (options.operators ?? OPERATORS).filter((e) =>
    options.extensions || !e.extension
  );
  const extra = new Set(entries.flatMap((e) => e.nodeTypes ?? []));
  const ctx: SiteContext = { code, nodes: indexNodes(tree, extra) };
  const edits = entries.flatMap((entry) =>
    entry.edits(ctx).sort((a, b) => (a.at ?? a.start) - (b.at ?? b.start))
  );
  return applyEdits(parser, tree, code, edits);
}

/**
 * Turn proposed edits of `code` (parsed as `tree`) into candidates, in the
 * given order: an in-place edit must stay on one line, a code equal to the
 * canonical or an earlier candidate is skipped, and a code tree-sitter finds
 * a syntax error in is rejected with the error's position.
 */
export function applyEdits(
  parser: PythonParser,
  tree: Tree,
  code: string,
  edits: readonly ProposedEdit[],
): MutateResult {
  const starts = lineStarts(code);
  const seen = new Set<string>([code]);
  const candidates: Candidate[] = [];
  const rejected: RejectedEdit[] = [];
  let duplicates = 0;
  for (const edit of edits) {
    const where = locate(starts, edit.at ?? edit.start);
    const reject = (reason: string) =>
      rejected.push({ bug_type: edit.bug_type, operator: edit.operator, ...where, reason });
    if (!edit.deletion && (!oneLine(code, edit.start, edit.end) || edit.text.includes("\n"))) {
      reject("edit spans lines (the diff must be one line)");
      continue;
    }
    const mutated = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
    if (seen.has(mutated)) {
      duplicates++;
      continue;
    }
    seen.add(mutated);
    const reparsed = parser.reparse(tree, code, edit.start, edit.end, edit.text);
    const broken = firstError(reparsed.rootNode);
    const brokenAt = broken ? locate(lineStarts(mutated), broken.startIndex) : undefined;
    reparsed.delete();
    if (brokenAt) {
      reject(
        `syntax error after edit (at line ${brokenAt.line}, column ${brokenAt.column} of the mutated code)`,
      );
      continue;
    }
    candidates.push({
      bug_type: edit.bug_type,
      operator: edit.operator,
      extension: edit.extension,
      ...where,
      ...lineChange(code, mutated, starts, where.line, edit),
      code: mutated,
    });
  }
  return { candidates, rejected, duplicates };
}

/** The edited line before and after; for a deleted statement, all its lines and "". */
function lineChange(
  code: string,
  mutated: string,
  starts: number[],
  line: number,
  edit: ProposedEdit,
): { before: string; after: string } {
  const lineAt = (text: string, start: number) => {
    const nl = text.indexOf("\n", start);
    return stripCr(text.slice(start, nl === -1 ? text.length : nl));
  };
  if (edit.deletion) {
    const count = code.slice(edit.start, edit.end).split("\n").length - 1;
    const lines = [];
    for (let i = 0; i < count; i++) lines.push(lineAt(code, starts[line - 1 + i]));
    return { before: lines.join("\n"), after: "" };
  }
  const start = starts[line - 1];
  return { before: lineAt(code, start), after: lineAt(mutated, start) };
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** Start index of every line. */
function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = code.indexOf("\n"); i !== -1; i = code.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column (UTF-16 code units) of string index `index`. */
function locate(starts: number[], index: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: index - starts[lo] + 1 };
}

/** The first ERROR or MISSING node, or null when the tree is clean. */
function firstError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  if (!node.hasError) return null;
  for (const child of node.children) {
    if (!child) continue;
    const found = firstError(child);
    if (found) return found;
  }
  return node;
}
