import type { Node } from "../python_parser.ts";
import { intLiteral, oneLine, type ProposedEdit, type SiteContext, textOf } from "./_syntax.ts";

/** Conditions that `not` binds more tightly than, so `not c` needs `not (c)`. */
const LOOSER_THAN_NOT = new Set([
  "boolean_operator",
  "conditional_expression",
  "lambda",
  "named_expression",
]);

function edit(bug_type: string, operator: string, node: Node, text: string): ProposedEdit {
  return { bug_type, operator, extension: true, start: node.startIndex, end: node.endIndex, text };
}

/**
 * Extension operators, beyond the paper's six bug types and off by default:
 * `negate_condition` (`if c:` → `if not c:`, `if not c:` → `if c:`, also for
 * `elif` and `while`), `wrong_return_value` (`return True` ↔ `return False`)
 * and `wrong_constant` (an integer literal in an assignment or return moved
 * by one, a boolean literal in an assignment flipped).
 */
export function extensionEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const type of ["if_statement", "elif_clause", "while_statement"]) {
    for (const node of nodes.get(type) ?? []) {
      const cond = node.childForFieldName("condition");
      if (!cond || !oneLine(code, cond.startIndex, cond.endIndex)) continue;
      if (cond.type === "not_operator") {
        const arg = cond.childForFieldName("argument")!;
        out.push(edit("negate_condition", "drop_not", cond, textOf(code, arg)));
      } else {
        const text = textOf(code, cond);
        const negated = LOOSER_THAN_NOT.has(cond.type) ? `not (${text})` : `not ${text}`;
        // `while(x):` has no space before its condition; `whilenot` would be a name.
        const spaced = /\s/.test(code[cond.startIndex - 1] ?? " ") ? negated : ` ${negated}`;
        out.push(edit("negate_condition", `negate_${type.split("_")[0]}`, cond, spaced));
      }
    }
  }
  for (const ret of nodes.get("return_statement") ?? []) {
    const value = ret.namedChildren[0];
    if (value?.type === "true") {
      out.push(edit("wrong_return_value", "true_to_false", value, "False"));
    }
    if (value?.type === "false") {
      out.push(edit("wrong_return_value", "false_to_true", value, "True"));
    }
  }
  const constantSites = [
    ...(nodes.get("assignment") ?? []).map((a) => a.childForFieldName("right")),
    ...(nodes.get("return_statement") ?? []).map((r) => r.namedChildren[0]),
  ];
  for (const value of constantSites) {
    if (!value) continue;
    const n = value.type === "integer" ? intLiteral(code, value) : undefined;
    if (n !== undefined) {
      out.push(edit("wrong_constant", "const_plus_one", value, String(n + 1)));
      if (n > 0) out.push(edit("wrong_constant", "const_minus_one", value, String(n - 1)));
    }
    if (value.type === "true" && value.parent?.type === "assignment") {
      out.push(edit("wrong_constant", "true_to_false", value, "False"));
    }
    if (value.type === "false" && value.parent?.type === "assignment") {
      out.push(edit("wrong_constant", "false_to_true", value, "True"));
    }
  }
  return out;
}
