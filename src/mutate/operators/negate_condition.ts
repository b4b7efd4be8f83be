import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { oneLine, replaceNode, textOf } from "./syntax.ts";

/** Nodes with a tested condition, and the operator that negates it. */
const NEGATED: Record<string, string> = {
  if_statement: "negate_if",
  elif_clause: "negate_elif",
  while_statement: "negate_while",
  if_clause: "negate_filter",
  conditional_expression: "negate_ternary",
};

/** Conditions that `not` binds more tightly than, so `not c` needs `not (c)`. */
const LOOSER_THAN_NOT = new Set([
  "boolean_operator",
  "conditional_expression",
  "lambda",
  "named_expression",
]);

/**
 * `negate_condition` (extension): `if c:` → `if not c:`, `if not c:` → `if c:`,
 * also for `elif`, `while`, a comprehension's filter and `a if c else b`.
 */
export function negateConditionEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const [type, negateOperator] of Object.entries(NEGATED)) {
    for (const node of nodes.get(type) ?? []) {
      const cond = conditionOf(node);
      if (!cond || !oneLine(code, cond.startIndex, cond.endIndex)) continue;
      if (cond.type === "not_operator") {
        const arg = cond.childForFieldName("argument")!;
        out.push(edit("drop_not", cond, textOf(code, arg)));
      } else {
        const text = textOf(code, cond);
        const negated = LOOSER_THAN_NOT.has(cond.type) ? `not (${text})` : `not ${text}`;
        // `while(x):` has no space before its condition; `whilenot` would be a name.
        const spaced = /\s/.test(code[cond.startIndex - 1] ?? " ") ? negated : ` ${negated}`;
        out.push(edit(negateOperator, cond, spaced));
      }
    }
  }
  return out;
}

function edit(operator: string, node: Node, text: string): ProposedEdit {
  return replaceNode("negate_condition", operator, true, node, text);
}

/** The tested condition of an `if`, `elif`, `while`, comprehension filter or `a if c else b`. */
function conditionOf(node: Node): Node | null {
  if (node.type === "if_clause") return node.namedChildren[0];
  if (node.type === "conditional_expression") return node.namedChildren[1];
  return node.childForFieldName("condition");
}

/** The `negate_condition` entry of the operator registry (src/mutate/operator_registry.ts). */
export const negateConditionOperator: OperatorEntry = {
  bug_type: "negate_condition",
  extension: true,
  meaning:
    "Extension: an `if`, `elif`, `while`, comprehension filter or `a if c else b` condition negated.",
  operators: [...Object.values(NEGATED), "drop_not"],
  edits: negateConditionEdits,
  examples: [
    { operator: "negate_while", body: "while a: a -= 1", after: "while not a: a -= 1" },
    { operator: "negate_if", body: "if a or b: pass", after: "if not (a or b): pass" },
    { operator: "drop_not", body: "if not a: pass", after: "if a: pass" },
    {
      operator: "negate_filter",
      body: "return [x for x in xs if x > a]",
      after: "return [x for x in xs if not x > a]",
    },
    { operator: "negate_ternary", body: "return a if b else 0", after: "return a if not b else 0" },
    {
      operator: "negate_elif",
      body: "if a > 1:\n    return b\nelif a:\n    return 0\nreturn b",
      after: "elif not a:",
    },
  ],
};
