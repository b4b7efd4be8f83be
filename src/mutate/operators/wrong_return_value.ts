import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { oneLine, replaceNode } from "./syntax.ts";

/**
 * `wrong_return_value` (extension): `return True` ↔ `return False`, and a
 * computed value never handed back (`return x` → `return None`).
 */
export function wrongReturnValueEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const ret of nodes.get("return_statement") ?? []) {
    const value = ret.namedChildren[0];
    if (value?.type === "true") {
      out.push(edit("true_to_false", value, "False"));
    }
    if (value?.type === "false") {
      out.push(edit("false_to_true", value, "True"));
    }
    // The value computed but never handed back: what a caller sees when a function forgets
    // to return it.
    if (
      value && !["true", "false", "none", "comment"].includes(value.type) &&
      oneLine(code, value.startIndex, value.endIndex)
    ) {
      out.push(edit("return_none", value, "None"));
    }
  }
  return out;
}

function edit(operator: string, node: Node, text: string): ProposedEdit {
  return replaceNode("wrong_return_value", operator, true, node, text);
}

/** The `wrong_return_value` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongReturnValueOperator: OperatorEntry = {
  bug_type: "wrong_return_value",
  extension: true,
  meaning:
    "Extension: `return True` ↔ `return False`; a computed value never handed back (`return x` → `return None`).",
  operators: ["false_to_true", "return_none", "true_to_false"],
  edits: wrongReturnValueEdits,
  examples: [
    { operator: "true_to_false", body: "return True", after: "return False" },
    { operator: "false_to_true", body: "return False", after: "return True" },
    { operator: "return_none", body: "return a + b", after: "return None" },
  ],
};
