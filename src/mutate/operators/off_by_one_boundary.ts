import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { calleeName, intLiteral, operatorOf, plusMinusOneNames, shiftEdit } from "./syntax.ts";

/** A comparison operand that is a boundary constant: `3`, `-1`, or `X ± k` with literal k. */
function boundary(code: string, node: Node): boolean {
  if (intLiteral(code, node) !== undefined) return true;
  if (node.type !== "binary_operator") return false;
  const op = operatorOf(node)!.type;
  const right = node.childForFieldName("right")!;
  return (op === "+" || op === "-") && right.type === "integer" &&
    intLiteral(code, right) !== undefined;
}

const ORDERING = new Set(["<", "<=", ">", ">="]);

/** Right-hand operands that read as a numeric bound (not a string, list or call's text). */
const BOUNDS = new Set(["identifier", "attribute", "subscript", "binary_operator"]);

/**
 * `off_by_one_boundary` sites: every constant operand of a comparison,
 * moved by ±1 (`x > 0` → `x > 1`, `len(s) >= 3` → `len(s) >= 4`,
 * `i < n - 1` → `i < n`; each operand of a chained comparison is its own
 * site), and in a two-operand ordering comparison without a constant, the
 * `len(...)` bound (`i < len(s)` → `i < len(s) - 1`) or else the right-hand
 * operand, which is the bound in the usual `x < bound` order (`i < n` →
 * `i < n + 1` or `i < n - 1`).
 */
export function offByOneBoundaryEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  const shift = (operand: Node, name: string) => {
    for (const delta of [1, -1] as const) {
      out.push({
        bug_type: "off_by_one_boundary",
        operator: `${name}_${delta > 0 ? "plus" : "minus"}_one`,
        extension: false,
        ...shiftEdit(code, operand, delta),
      });
    }
  };
  for (const cmp of nodes.get("comparison_operator") ?? []) {
    const operands = cmp.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
    for (const operand of operands) if (boundary(code, operand)) shift(operand, "boundary");
    // `i < len(s)` → `i < len(s) - 1`: a length bound compared with anything but a constant
    // (whose own shift is the site above).
    if (operands.length === 2 && !operands.some((o) => boundary(code, o))) {
      const lengths = operands.filter((o) => o.type === "call" && calleeName(code, o) === "len");
      for (const operand of lengths) shift(operand, "len_bound");
      const op = cmp.children.find((c) => c && !c.isNamed)?.type ?? "";
      if (lengths.length === 0 && ORDERING.has(op) && BOUNDS.has(operands[1].type)) {
        shift(operands[1], "bound");
      }
    }
  }
  return out;
}

/** The `off_by_one_boundary` entry of the operator registry (src/mutate/operator_registry.ts). */
export const offByOneBoundaryOperator: OperatorEntry = {
  bug_type: "off_by_one_boundary",
  extension: false,
  meaning:
    "A bound in a comparison moved by one: a constant (`x > 0` → `x > 1`), `X ± k`, a `len(...)` bound, or the right-hand bound of an ordering (`i < n` → `i < n - 1`).",
  operators: [
    ...plusMinusOneNames(["boundary", "bound", "len_bound"]),
  ],
  edits: offByOneBoundaryEdits,
  examples: [
    { operator: "boundary_plus_one", body: "return a >= 3", after: "return a >= 4" },
    { operator: "boundary_minus_one", body: "return a >= 3", after: "return a >= 2" },
    {
      operator: "len_bound_plus_one",
      body: "return a <= len(xs)",
      after: "return a <= len(xs) + 1",
    },
    {
      operator: "len_bound_minus_one",
      body: "return a <= len(xs)",
      after: "return a <= len(xs) - 1",
    },
    { operator: "bound_plus_one", body: "return a < b", after: "return a < b + 1" },
    { operator: "bound_minus_one", body: "return a < b", after: "return a < b - 1" },
  ],
};
