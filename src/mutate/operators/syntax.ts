import type { Node, Tree } from "../../common/python_parser.ts";
import type { ProposedEdit, SiteContext } from "../operator_entry.ts";

/**
 * Subtrees no operator may touch: operator tokens in them are text (strings,
 * f-string text and their interpolations, comments) or do not change what the
 * function computes (annotations, decorators).
 */
const SKIPPED = new Set(["string", "concatenated_string", "comment", "type", "decorator"]);

/** Skipped subtrees that are still indexed whole: the extensions replace a literal outright. */
const INDEXED_WHOLE = new Set(["string", "concatenated_string"]);

/** Node types any operator module looks at. */
const WANTED = new Set([
  "assignment",
  "augmented_assignment",
  "binary_operator",
  "boolean_operator",
  "call",
  "concatenated_string",
  "comparison_operator",
  "conditional_expression",
  "elif_clause",
  "false",
  "float",
  "for_in_clause",
  "for_statement",
  "function_definition",
  "identifier",
  "if_clause",
  "if_statement",
  "import_from_statement",
  "import_statement",
  "integer",
  "return_statement",
  "slice",
  "string",
  "subscript",
  "true",
  "unary_operator",
  "while_statement",
]);

/**
 * Walk the tree once with a cursor (cheaper than materialising every node)
 * and index the wanted nodes by type, in source order: the types the built-in
 * operators read, plus `extra` (an entry's `nodeTypes`).
 */
export function indexNodes(
  tree: Tree,
  extra: ReadonlySet<string> = new Set(),
): Map<string, Node[]> {
  const out = new Map<string, Node[]>();
  const cursor = tree.walk();
  try {
    for (;;) {
      const type = cursor.nodeType;
      const skip = SKIPPED.has(type);
      if ((WANTED.has(type) || extra.has(type)) && (!skip || INDEXED_WHOLE.has(type))) {
        let list = out.get(type);
        if (!list) out.set(type, list = []);
        list.push(cursor.currentNode);
      }
      if (!skip && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Source text of a node, sliced from the original (so CRLF and tabs survive). */
export function textOf(code: string, node: Node): string {
  return code.slice(node.startIndex, node.endIndex);
}

/** True when `[start, end)` lies on one line. */
export function oneLine(code: string, start: number, end: number): boolean {
  const nl = code.indexOf("\n", start);
  return nl === -1 || nl >= end;
}

const DECIMAL = /^(0|[1-9](_?[0-9])*)$/;

/**
 * The value of a plain decimal integer literal, or of `-` applied to one;
 * undefined for anything else (hex, imaginary, huge, expressions).
 */
export function intLiteral(code: string, node: Node): number | undefined {
  if (node.type === "integer") {
    const text = textOf(code, node);
    if (!DECIMAL.test(text)) return undefined;
    const value = Number(text.replaceAll("_", ""));
    return Number.isSafeInteger(value) ? value : undefined;
  }
  if (node.type === "unary_operator" && node.childForFieldName("operator")?.type === "-") {
    const arg = node.childForFieldName("argument");
    const value = arg?.type === "integer" ? intLiteral(code, arg) : undefined;
    return value === undefined ? undefined : -value;
  }
  return undefined;
}

/** Expressions that bind at least as tightly as `+`, so `e + 1` needs no parentheses. */
const TIGHT = new Set([
  "attribute",
  "call",
  "dictionary",
  "false",
  "float",
  "identifier",
  "integer",
  "list",
  "list_comprehension",
  "none",
  "parenthesized_expression",
  "set",
  "string",
  "subscript",
  "true",
  "tuple",
  "unary_operator",
]);

const ADDITIVE_OR_TIGHTER = new Set(["+", "-", "*", "/", "//", "%", "**", "@"]);

/** The operator token of a binary_operator, boolean_operator or unary_operator. */
export function operatorOf(node: Node): Node | null {
  return node.childForFieldName("operator");
}

/**
 * Text of expression `node` moved by `delta` (±1), simplified where the
 * expression is an integer literal (`3` → `4`) or `X ± k` (`n - 1` → `n`,
 * `i + 1` → `i + 2`); otherwise `e + 1` / `e - 1`, with `e` parenthesised
 * when it binds more loosely than `+` and the sum parenthesised when its
 * position binds more tightly (`s / len(xs)` → `s / (len(xs) - 1)`).
 */
export function shiftedText(code: string, node: Node, delta: 1 | -1): string {
  const value = intLiteral(code, node);
  if (value !== undefined) return String(value + delta);
  const text = textOf(code, node);
  if (node.type === "binary_operator") {
    const op = operatorOf(node)!;
    const left = node.childForFieldName("left")!;
    const right = node.childForFieldName("right")!;
    const k = right.type === "integer" ? intLiteral(code, right) : undefined;
    if ((op.type === "+" || op.type === "-") && k !== undefined) {
      const offset = (op.type === "+" ? k : -k) + delta;
      const leftText = textOf(code, left);
      if (offset === 0) return leftText;
      const between = code.slice(left.endIndex, right.startIndex);
      const sign = offset > 0 ? "+" : "-";
      const opAt = op.startIndex - left.endIndex;
      return leftText + between.slice(0, opAt) + sign + between.slice(opAt + 1) +
        String(Math.abs(offset));
    }
  }
  const loose = !TIGHT.has(node.type) &&
    !(node.type === "binary_operator" && ADDITIVE_OR_TIGHTER.has(operatorOf(node)!.type));
  const sum = `${loose ? `(${text})` : text} ${delta > 0 ? "+" : "-"} 1`;
  return bindsTighterThanAdd(node) ? `(${sum})` : sum;
}

/**
 * The edit that moves `node` by `delta` (see {@link shiftedText}). When the
 * result is a bare atom that was parenthesised only for its offset,
 * `(x - 1)` → `x` rather than `(x)`, which no one would write.
 */
export function shiftEdit(
  code: string,
  node: Node,
  delta: 1 | -1,
): { start: number; end: number; text: string } {
  const text = shiftedText(code, node, delta);
  const parent = node.parent;
  if (
    parent?.type === "parenthesized_expression" && parent.namedChildren.length === 1 &&
    node.type === "binary_operator" && text === textOf(code, node.childForFieldName("left")!) &&
    TIGHT.has(node.childForFieldName("left")!.type) &&
    !/[\p{L}\p{N}_]/u.test(code[parent.startIndex - 1] ?? " ") &&
    !/[\p{L}\p{N}_]/u.test(code[parent.endIndex] ?? " ")
  ) {
    return { start: parent.startIndex, end: parent.endIndex, text };
  }
  return { start: node.startIndex, end: node.endIndex, text };
}

/** Binary operators that bind more tightly than `+`: an `e + 1` operand of theirs needs parentheses. */
const TIGHTER_THAN_ADD = new Set(["*", "/", "//", "%", "@", "**"]);

/** Whether `node`'s position binds more tightly than `+` (so `e + 1` there must be parenthesised). */
function bindsTighterThanAdd(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  switch (parent.type) {
    case "binary_operator":
      return TIGHTER_THAN_ADD.has(operatorOf(parent)!.type) ||
        (operatorOf(parent)!.type === "-" && parent.childForFieldName("right")?.id === node.id);
    case "unary_operator":
    case "await":
      return true;
    case "attribute":
      return parent.childForFieldName("object")?.id === node.id;
    case "subscript":
      return parent.childForFieldName("value")?.id === node.id;
    case "call":
      return parent.childForFieldName("function")?.id === node.id;
    default:
      return false;
  }
}

/** Positional arguments of a call, or null when it has splats or a generator argument. */
export function positionalArgs(call: Node): Node[] | null {
  const args = call.childForFieldName("arguments");
  if (!args || args.type !== "argument_list") return null;
  const out: Node[] = [];
  for (const arg of args.namedChildren) {
    if (!arg || arg.type === "comment") continue;
    if (arg.type === "keyword_argument") break;
    if (arg.type === "list_splat" || arg.type === "dictionary_splat") return null;
    out.push(arg);
  }
  return out;
}

/** The called name when a call's function is a plain identifier (`range`, `len`). */
export function calleeName(code: string, call: Node): string | undefined {
  const fn = call.childForFieldName("function");
  return fn?.type === "identifier" ? textOf(code, fn) : undefined;
}

/** The called method's name when a call's function is an attribute (`s.join`, `re.sub`). */
export function methodName(code: string, call: Node): string | undefined {
  const fn = call.childForFieldName("function");
  const name = fn?.type === "attribute" ? fn.childForFieldName("attribute") : null;
  return name ? textOf(code, name) : undefined;
}

/**
 * Names the canonical binds by `import` (`re`, `np` in `import numpy as np`,
 * `Counter` in `from collections import Counter`): modules and imported
 * functions, never sequences or values a slip could swap or slice.
 */
export function importedNames(ctx: SiteContext): Set<string> {
  const names = new Set<string>();
  const { code, nodes } = ctx;
  for (const type of ["import_statement", "import_from_statement"]) {
    for (const statement of nodes.get(type) ?? []) {
      for (const child of statement.childrenForFieldName("name")) {
        if (!child) continue;
        const bound = child.type === "aliased_import" ? child.childForFieldName("alias") : child;
        // `import os.path` binds `os`.
        if (bound) names.add(textOf(code, bound).split(".")[0].trim());
      }
    }
  }
  return names;
}

/** Calls whose result is a list, tuple or string (so `+` on it concatenates and slicing works). */
const SEQUENCE_CALLS = new Set(["list", "sorted", "str", "tuple"]);
const SEQUENCE_METHODS = new Set(["join", "split", "strip", "lower", "upper", "replace"]);

/**
 * Whether an expression evidently is a list, tuple or string: a literal, a
 * slice (`s[1:]`), or a call that builds one (`list(...)`, `sorted(...)`,
 * `"".join(...)`, `s.split()`).
 */
export function evidentSequence(code: string, node: Node): boolean {
  switch (node.type) {
    case "string":
    case "concatenated_string":
    case "list":
    case "list_comprehension":
    case "tuple":
      return true;
    case "subscript":
      return node.childrenForFieldName("subscript").some((s) => s?.type === "slice");
    case "call":
      return SEQUENCE_CALLS.has(calleeName(code, node) ?? "") ||
        SEQUENCE_METHODS.has(methodName(code, node) ?? "");
    default:
      return false;
  }
}

/**
 * The range that deletes `node`'s whole lines, line break included, or null
 * when the lines hold anything else (code before it, or code after it other
 * than a comment).
 */
export function wholeLines(code: string, node: Node): [number, number] | null {
  const lineStart = node.startIndex === 0 ? 0 : code.lastIndexOf("\n", node.startIndex - 1) + 1;
  if (!/^[ \t]*$/.test(code.slice(lineStart, node.startIndex))) return null;
  const nl = code.indexOf("\n", node.endIndex);
  const lineEnd = nl === -1 ? code.length : nl;
  if (!/^[ \t]*(#[^\n]*)?\r?$/.test(code.slice(node.endIndex, lineEnd))) return null;
  if (nl !== -1) return [lineStart, nl + 1];
  // Last line without a final newline: take the line break before it instead.
  if (lineStart === 0) return null;
  const before = code[lineStart - 2] === "\r" ? lineStart - 2 : lineStart - 1;
  return [before, code.length];
}

/** Whether `node` lies in a function's parameter list (a default value: the signature stays as it is). */
export function inParameters(node: Node): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === "parameters" || at.type === "lambda_parameters") return true;
    if (at.type === "block" || at.type === "function_definition") return false;
  }
  return false;
}

/** The identifiers in `node`, itself included when it is one. */
export function identifiersIn(node: Node): Node[] {
  return node.type === "identifier"
    ? [node]
    : node.descendantsOfType("identifier").filter((n): n is Node => n !== null);
}

/** An edit that replaces `node`'s whole text by `text`. */
export function replaceNode(
  bug_type: string,
  operator: string,
  extension: boolean,
  node: Node,
  text: string,
): ProposedEdit {
  return { bug_type, operator, extension, start: node.startIndex, end: node.endIndex, text };
}

/**
 * Whether `name` is defined by the canonical itself (a def, a parameter, an
 * assignment), so a call of it is not the builtin or imported one of that name.
 */
export function shadowed(code: string, name: string, imported: ReadonlySet<string>): boolean {
  if (imported.has(name)) return false;
  const escaped = name.replace(/[^\p{L}\p{N}_]/gu, "");
  return new RegExp(
    `(def\\s+${escaped}\\b|\\b${escaped}\\s*=[^=]|[(,]\\s*${escaped}\\s*[,)=:])`,
    "u",
  )
    .test(code);
}

/** The operator names a shift by ±1 of each site kind gives: `<base>_plus_one`, `<base>_minus_one`. */
export function plusMinusOneNames(bases: readonly string[]): string[] {
  return bases.flatMap((base) => [`${base}_plus_one`, `${base}_minus_one`]);
}
