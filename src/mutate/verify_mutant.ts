import { sha256Hex } from "../io/hash.ts";
import { DELETING_TYPES, diffOneEdit } from "./diff_one_edit.ts";
import type { PythonParser } from "../common/python_parser.ts";

/** The fields of a `mutants` row that {@link verifyMutant} checks. */
export interface MutantRecord {
  bug_type: string;
  line: number;
  before: string;
  after: string;
  code: string;
  code_sha256?: string;
}

/**
 * Integrity check of one mutant against its canonical: the code hash
 * matches, the code parses, it differs from the canonical by exactly one
 * edit at the recorded line with the recorded before/after text, and a
 * deletion (only the `DELETING_TYPES`) removes exactly one whole
 * statement. Returns the problems found; empty means the row is sound.
 */
export function verifyMutant(
  parser: PythonParser,
  canonical: string,
  mutant: MutantRecord,
): string[] {
  const problems: string[] = [];
  if (mutant.code_sha256 !== undefined && sha256Hex(mutant.code) !== mutant.code_sha256) {
    problems.push("code_sha256 does not match the code");
  }
  const tree = parser.parse(mutant.code);
  if (tree.rootNode.hasError) problems.push("code does not parse");
  tree.delete();
  const diff = diffOneEdit(canonical, mutant.code, mutant.bug_type);
  if (!diff) {
    problems.push(
      DELETING_TYPES.has(mutant.bug_type)
        ? "not one changed line nor one deleted run of lines"
        : "not exactly one changed line",
    );
    return problems;
  }
  if (diff.before !== mutant.before || diff.after !== mutant.after) {
    problems.push(`recorded before/after differ from the diff at line ${diff.line}`);
  }
  const lines = canonical.split("\n");
  if (diff.deleted === 0) {
    if (diff.line !== mutant.line) {
      problems.push(`edit is on line ${diff.line}, recorded ${mutant.line}`);
    }
    const mutatedLines = mutant.code.split("\n");
    const rebuilt = lines.map((l, i) => i === diff.line - 1 ? mutatedLines[i] : l).join("\n");
    if (rebuilt !== mutant.code) problems.push("lines other than the edited one changed");
    return problems;
  }
  // A run of identical lines lets the diff place a deletion elsewhere; the recorded line must
  // still reproduce the mutant exactly.
  const count = diff.deleted;
  const rebuilt = [...lines.slice(0, mutant.line - 1), ...lines.slice(mutant.line - 1 + count)];
  if (rebuilt.join("\n") !== mutant.code && !deletedAtEnd(lines, mutant, count)) {
    problems.push(`deleting ${count} line(s) at line ${mutant.line} does not give the code`);
  }
  const statement = deletedStatement(parser, canonical, mutant.line - 1, mutant.line - 2 + count);
  const span = `lines ${mutant.line}-${mutant.line - 1 + count}`;
  if (statement === "none") problems.push(`deleted ${span} are not one statement`);
  // tree-sitter parses an emptied block without complaint; CPython does not.
  if (statement === "alone") {
    problems.push(`deleted ${span} were the only statement of their block`);
  }
  return problems;
}

/** A deletion of the last lines also removes the line break before them. */
function deletedAtEnd(lines: string[], mutant: MutantRecord, count: number): boolean {
  if (mutant.line - 1 + count !== lines.length) return false;
  const kept = lines.slice(0, mutant.line - 1);
  const last = kept.length - 1;
  if (last >= 0) kept[last] = kept[last].replace(/\r$/, "");
  return kept.join("\n") === mutant.code;
}

/**
 * Whether rows `first..last` (0-based) of `code` are exactly one statement's
 * lines ("one"), the only statement of their block ("alone"), or not a
 * statement ("none").
 */
function deletedStatement(
  parser: PythonParser,
  code: string,
  first: number,
  last: number,
): "one" | "alone" | "none" {
  const tree = parser.parse(code);
  try {
    const stack = [tree.rootNode];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.startPosition.row > last || node.endPosition.row < first) continue;
      if (
        node.type.endsWith("_statement") && node.startPosition.row === first &&
        node.endPosition.row === last
      ) {
        const siblings = node.parent?.namedChildren.filter((c) => c && c.type !== "comment") ?? [];
        return siblings.length >= 2 ? "one" : "alone";
      }
      for (const child of node.namedChildren) if (child) stack.push(child);
    }
    return "none";
  } finally {
    tree.delete();
  }
}
