import type { Node } from "../common/python_parser.ts";

/** One proposed edit: replace `code.slice(start, end)` by `text`. */
export interface ProposedEdit {
  bug_type: string;
  operator: string;
  /** True for operators beyond the paper's six bug types. */
  extension: boolean;
  start: number;
  end: number;
  text: string;
  /** A whole statement (whole lines) is deleted: only by an entry marked `deletes`. */
  deletion?: boolean;
  /** Where the edit is reported (line, column) when not at `start`: a deleted statement's start. */
  at?: number;
}

/** What every operator module sees: the source and its code nodes by type. */
export interface SiteContext {
  code: string;
  /** Nodes by type, outside strings, comments, type annotations and decorators. */
  nodes: ReadonlyMap<string, readonly Node[]>;
}

/**
 * One worked example of a fine operator: a function body and the line the
 * operator makes of it. The unit tests check the engine makes exactly this
 * edit, and `data/MUTATION_OPERATORS.md` is generated from the examples, so the
 * reference cannot drift from the engine.
 */
export interface OperatorExample {
  operator: string;
  /** Body of `def f(a, b, xs):`, one statement per line, without the body's indent. */
  body: string;
  /** The edited line after the edit, without the body's indent ("" when deleted). */
  after: string;
}

/**
 * Everything the kit knows about one bug type's operator: the engine runs
 * `edits`, the reference prints `meaning` and `examples`, the tests check the
 * examples and that every edit is named in `operators`, and `deletes` tells
 * the one-edit check a whole statement may go. A new operator is one file
 * exporting such an entry plus one line in `OPERATORS`
 * (src/mutate/operator_registry.ts).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const wrongSign: OperatorEntry = {
 *   bug_type: "wrong_sign",
 *   extension: true,
 *   meaning: "Extension: a unary minus dropped (`-x` → `x`).",
 *   operators: ["drop_minus"],
 *   edits: () => [], // a real operator proposes its edits from ctx.nodes
 *   examples: [{ operator: "drop_minus", body: "return -a", after: "return a" }],
 * };
 * strictEqual(wrongSign.operators.includes(wrongSign.examples[0].operator), true);
 * ```
 */
export interface OperatorEntry {
  /** The `bug_type` every edit of this operator carries. */
  bug_type: string;
  /** False for the paper's six; true for operators that run only with `extensions`. */
  extension: boolean;
  /** One paragraph for data/MUTATION_OPERATORS.md: what a candidate of this type is. */
  meaning: string;
  /** Every fine operator name (`ProposedEdit.operator`) the edits may carry. */
  operators: readonly string[];
  /** The sites and edits of this bug type in one canonical, in any order (the engine sorts). */
  edits: (ctx: SiteContext) => ProposedEdit[];
  /** Worked examples, in the order the reference lists them. */
  examples: readonly OperatorExample[];
  /** The edit may delete one whole statement (see `deletion` on {@link ProposedEdit}). */
  deletes?: boolean;
  /**
   * Node types `edits` reads from `ctx.nodes` beyond those the built-in
   * operators already index (`WANTED` in operators/syntax.ts), e.g. `"lambda"`.
   */
  nodeTypes?: readonly string[];
}

/** The parameters every example's function takes. */
export const EXAMPLE_SIGNATURE = "def f(a, b, xs):";

/** The example's whole function, as the engine sees it. */
export function exampleCode(example: OperatorExample): string {
  return `${EXAMPLE_SIGNATURE}\n${example.body.split("\n").map((l) => `    ${l}\n`).join("")}`;
}
