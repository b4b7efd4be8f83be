import type { Node } from "../python_parser.ts";
import {
  calleeName,
  intLiteral,
  operatorOf,
  type ProposedEdit,
  shiftEdit,
  type SiteContext,
} from "./_syntax.ts";

/** A comparison operand that is a boundary constant: `3`, `-1`, or `X ± k` with literal k. */
function boundary(code: string, node: Node): boolean {
  if (intLiteral(code, node) !== undefined) return true;
  if (node.type !== "binary_operator") return false;
  const op = operatorOf(node)!.type;
  const right = node.childForFieldName("right")!;
  return (op === "+" || op === "-") && right.type === "integer" &&
    intLiteral(code, right) !== undefined;
}

/**
 * `off_by_one_boundary` sites: every constant operand of a comparison,
 * moved by ±1 (`x > 0` → `x > 1`, `len(s) >= 3` → `len(s) >= 4`,
 * `i < n - 1` → `i < n`; each operand of a chained comparison is its own
 * site), and a `len(...)` bound of a two-operand comparison without a
 * constant (`i < len(s)` → `i < len(s) - 1`).
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
      for (const operand of operands) {
        if (operand.type === "call" && calleeName(code, operand) === "len") {
          shift(operand, "len_bound");
        }
      }
    }
  }
  return out;
}
