import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import {
  calleeName,
  evidentSequence,
  importedNames,
  operatorOf,
  positionalArgs,
  textOf,
} from "./syntax.ts";

/** Binary operators whose operands cannot be swapped without changing the result. */
const NON_COMMUTATIVE = new Set(["-", "/", "//", "%", "**", "<<", ">>"]);

/** Comparisons whose operands cannot be swapped (`==`, `!=`, `is` commute). */
const ORDERED_COMPARISONS = new Set(["<", "<=", ">", ">=", "in", "not in"]);

/** Builtins whose two arguments commute: swapping them is never a bug. */
const COMMUTATIVE_CALLS = new Set(["max", "min"]);

/** Number literals: `n - 1` → `1 - n` or `mid // 2` → `2 // mid` is noise rather than a
 * plausible slip, so a number is swapped only with another (`4 / 3` → `3 / 4`), except under
 * {@link LITERAL_ORDER}. */
const NUMBERS = new Set(["integer", "float"]);

/**
 * Operators whose order with a number literal is a classic slip: a power or
 * a left shift written the wrong way round, the base and the exponent confused
 * (`2 ** n` ↔ `n ** 2`, `1 << k` → `k << 1`; integers only: `x ** 0.5` is a root).
 */
const LITERAL_ORDER = new Set(["**", "<<"]);

/** How tightly each binary operator binds (Python's precedence; unary `-x` is 7). */
const BINDING: Record<string, number> = {
  "|": 1,
  "^": 2,
  "&": 3,
  "<<": 4,
  ">>": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "//": 6,
  "%": 6,
  "@": 6,
  "**": 8,
};

/** How tightly an operand binds: atoms most, a binary operation by its operator, else 0. */
function binding(node: Node): number {
  if (node.type === "unary_operator") return 7;
  if (ATOMS.has(node.type)) return 9;
  if (node.type === "binary_operator") return BINDING[operatorOf(node)!.type] ?? 0;
  return 0;
}

/**
 * Whether `left op right` → `right op left` by swapping the operands' text
 * keeps each operand whole: `a * b - c` → `c - a * b`, but not `a - b - c`
 * (→ `c - a - b` regroups) nor `2 ** -n` (→ `-n ** 2` is `-(n ** 2)`).
 */
function swapKeepsGrouping(op: string, left: Node, right: Node): boolean {
  const p = BINDING[op];
  // `**` groups from the right: its left operand must bind more tightly than it, its right
  // one may be a unary operation or another power.
  if (op === "**") return binding(right) > 8 && binding(left) >= 7;
  return binding(right) >= p && binding(left) > p;
}

/** Operands simple enough that swapping their text swaps exactly those operands. */
const ATOMS = new Set([
  "attribute",
  "call",
  "concatenated_string",
  "false",
  "float",
  "identifier",
  "integer",
  "list",
  "list_comprehension",
  "none",
  "parenthesized_expression",
  "string",
  "subscript",
  "true",
  "tuple",
  "unary_operator",
]);

/** Objects and arguments a receiver swap exchanges: names and literals, whose text is the value. */
const RECEIVERS = new Set(["identifier", "string", "attribute", "subscript"]);

/** Number of arguments of any kind (positional, keyword, splat). */
function argumentCount(call: Node): number {
  const args = call.childForFieldName("arguments");
  return args ? args.namedChildren.filter((a) => a && a.type !== "comment").length : 0;
}

/** Index expressions that may be swapped between the two brackets of `m[i][j]`. */
const INDEXES = new Set(["identifier", "integer", "binary_operator", "unary_operator"]);

function swap(
  code: string,
  a: Node,
  b: Node,
  operator: string,
): ProposedEdit | undefined {
  const first = textOf(code, a);
  const second = textOf(code, b);
  if (first === second) return undefined;
  return {
    bug_type: "swap_arguments",
    operator,
    extension: false,
    start: a.startIndex,
    end: b.endIndex,
    text: second + code.slice(a.endIndex, b.startIndex) + first,
  };
}

/**
 * `swap_arguments` sites, each an exchange of two operands' text:
 * - any two positional arguments of a call (`pow(a, b)` → `pow(b, a)`,
 *   `zip(a, b, c)` → `zip(c, b, a)`; not `min`/`max`, not across keyword
 *   arguments or splats): `swap_args`;
 * - the object of a method call and its one argument, which is the call's
 *   other operand (`sep.join(xs)` → `xs.join(sep)`, `s.startswith(p)` →
 *   `p.startswith(s)`; not when the object is an imported module such as
 *   `re`): `swap_receiver`;
 * - the operands of a non-commutative binary operation (`a - b` → `b - a`, and
 *   `+` when one side evidently is a sequence, `"(" + s` → `s + "("`,
 *   `xs[k:] + xs[:k]` → `xs[:k] + xs[k:]`), each operand whole, compound ones
 *   too where the swap keeps the grouping (`a * b - c` → `c - a * b`; in
 *   `a - b - c` only the inner `a - b`), and a number literal only with another
 *   or as an integer base or exponent of `**` or `<<` (`2 ** n` → `n ** 2`,
 *   `1 << k` → `k << 1`; not `n - 1` → `1 - n`); never a `"%d" % n`
 *   formatting: `swap_operands`;
 * - the two sides of an ordering or membership comparison (`x < y` → `y < x`,
 *   `sub in s` → `s in sub`): `swap_comparison_operands`;
 * - the two indexes of `m[i][j]` → `m[j][i]`: `swap_indexes`;
 * - slice bounds `s[i:j]` → `s[j:i]`: `swap_slice_bounds`;
 * - adjacent items of a returned or assigned tuple (`return lo, hi`,
 *   `a, b = b, a % b`): `swap_tuple_items`.
 */
export function swapArgumentsEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  const push = (edit: ProposedEdit | undefined) => edit && out.push(edit);
  for (const call of nodes.get("call") ?? []) {
    if (COMMUTATIVE_CALLS.has(calleeName(code, call) ?? "")) continue;
    const args = positionalArgs(call);
    if (!args) continue;
    for (let i = 0; i + 1 < args.length; i++) {
      for (let j = i + 1; j < args.length; j++) push(swap(code, args[i], args[j], "swap_args"));
    }
  }
  const imported = importedNames(ctx);
  for (const call of nodes.get("call") ?? []) {
    const fn = call.childForFieldName("function");
    const object = fn?.type === "attribute" ? fn.childForFieldName("object") : null;
    const args = positionalArgs(call);
    if (!object || !args || args.length !== 1 || argumentCount(call) !== 1) continue;
    if (!RECEIVERS.has(object.type) || !RECEIVERS.has(args[0].type)) continue;
    if (object.type === "identifier" && imported.has(textOf(code, object))) continue;
    if (NUMBERS.has(object.type) || NUMBERS.has(args[0].type)) continue;
    push(swap(code, object, args[0], "swap_receiver"));
  }
  for (const bin of nodes.get("binary_operator") ?? []) {
    const op = operatorOf(bin)!.type;
    const left = bin.childForFieldName("left")!;
    const right = bin.childForFieldName("right")!;
    const concatenation = op === "+" &&
      (evidentSequence(code, left) || evidentSequence(code, right));
    if (!NON_COMMUTATIVE.has(op) && !concatenation) continue;
    if (!swapKeepsGrouping(op, left, right)) continue;
    // `"%d" % n` formats a string: `n % "%d"` only raises TypeError.
    if (op === "%" && (left.type === "string" || left.type === "concatenated_string")) continue;
    if (NUMBERS.has(left.type) !== NUMBERS.has(right.type)) {
      // `x ** 0.5` is a square root, not a power someone could write the wrong way round.
      const literal = NUMBERS.has(left.type) ? left : right;
      if (!LITERAL_ORDER.has(op) || literal.type !== "integer") continue;
    }
    push(swap(code, left, right, "swap_operands"));
  }
  for (const cmp of nodes.get("comparison_operator") ?? []) {
    const parts = cmp.children.filter((c): c is Node => c !== null && c.type !== "comment");
    if (parts.length !== 3 || !ORDERED_COMPARISONS.has(parts[1].type)) continue;
    if (!ATOMS.has(parts[0].type) || !ATOMS.has(parts[2].type)) continue;
    push(swap(code, parts[0], parts[2], "swap_comparison_operands"));
  }
  for (const outer of nodes.get("subscript") ?? []) {
    const inner = outer.childForFieldName("value");
    if (inner?.type !== "subscript") continue;
    const i = inner.childrenForFieldName("subscript");
    const j = outer.childrenForFieldName("subscript");
    if (i.length !== 1 || j.length !== 1 || !i[0] || !j[0]) continue;
    if (!INDEXES.has(i[0].type) || !INDEXES.has(j[0].type)) continue;
    push(swap(code, i[0], j[0], "swap_indexes"));
  }
  for (const slice of nodes.get("slice") ?? []) {
    const parts = slice.children.filter((c): c is Node => c !== null && c.type !== "comment");
    // start ":" stop, optionally followed by ":" step
    if (parts.length < 3 || !parts[0].isNamed || parts[1].type !== ":" || !parts[2].isNamed) {
      continue;
    }
    push(swap(code, parts[0], parts[2], "swap_slice_bounds"));
  }
  for (const type of ["return_statement", "assignment"]) {
    for (const node of nodes.get(type) ?? []) {
      const value = type === "assignment" ? node.childForFieldName("right") : node.namedChildren[0];
      if (value?.type !== "expression_list" && value?.type !== "tuple") continue;
      const items = value.namedChildren.filter((c): c is Node =>
        c !== null && c.type !== "comment"
      );
      for (let k = 0; k + 1 < items.length; k++) {
        push(swap(code, items[k], items[k + 1], "swap_tuple_items"));
      }
    }
  }
  return out;
}

/** The `swap_arguments` entry of the operator registry (src/mutate/operator_registry.ts). */
export const swapArgumentsOperator: OperatorEntry = {
  bug_type: "swap_arguments",
  extension: false,
  meaning:
    "Two operands exchanged: any two positional arguments of a call, a method's object and its one argument (`sep.join(xs)` → `xs.join(sep)`), the operands of a non-commutative operation (whole, even compound: `a * b - c` → `c - a * b`; a number literal only with another, or as the base or exponent of `**` or `<<`: `2 ** n` → `n ** 2`) or of an ordering comparison, two indexes, two slice bounds, two items of a returned or assigned tuple.",
  operators: [
    "swap_args",
    "swap_comparison_operands",
    "swap_indexes",
    "swap_operands",
    "swap_receiver",
    "swap_slice_bounds",
    "swap_tuple_items",
  ],
  edits: swapArgumentsEdits,
  examples: [
    { operator: "swap_args", body: "return divmod(a, b)", after: "return divmod(b, a)" },
    { operator: "swap_operands", body: "return a // b", after: "return b // a" },
    { operator: "swap_operands", body: "return 2 ** a", after: "return a ** 2" },
    { operator: "swap_operands", body: "return a * b - xs[0]", after: "return xs[0] - a * b" },
    { operator: "swap_comparison_operands", body: "return a < b", after: "return b < a" },
    { operator: "swap_indexes", body: "return xs[a][b]", after: "return xs[b][a]" },
    { operator: "swap_slice_bounds", body: "return xs[a:b]", after: "return xs[b:a]" },
    { operator: "swap_tuple_items", body: "return a, b", after: "return b, a" },
    { operator: "swap_receiver", body: "return a.startswith(b)", after: "return b.startswith(a)" },
  ],
};
