import type { Node } from "../python_parser.ts";
import {
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
 * `i < n - 1` → `i < n`). Each operand of a chained comparison is its own site.
 */
export function offByOneBoundaryEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const cmp of nodes.get("comparison_operator") ?? []) {
    for (const operand of cmp.namedChildren) {
      if (!operand || !boundary(code, operand)) continue;
      for (const delta of [1, -1] as const) {
        out.push({
          bug_type: "off_by_one_boundary",
          operator: delta > 0 ? "boundary_plus_one" : "boundary_minus_one",
          extension: false,
          ...shiftEdit(code, operand, delta),
        });
      }
    }
  }
  return out;
}
