import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { inParameters, intLiteral, replaceNode, textOf } from "./syntax.ts";

/**
 * `wrong_constant` (extension): an integer or decimal literal moved by one
 * (never a default value), a boolean literal outside a return flipped.
 */
export function wrongConstantEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const node of nodes.get("integer") ?? []) {
    if (inParameters(node)) continue;
    // `-3` moves as a whole: `-2` and `-4`, never `-0`.
    const negated = node.parent?.type === "unary_operator" &&
      node.parent.childForFieldName("operator")?.type === "-";
    const site = negated ? node.parent! : node;
    const n = intLiteral(code, site);
    if (n === undefined) continue;
    out.push(edit("const_plus_one", site, String(n + 1)));
    if (n !== 0) out.push(edit("const_minus_one", site, String(n - 1)));
  }
  for (const node of nodes.get("float") ?? []) {
    if (inParameters(node)) continue;
    const m = /^([0-9]*)(\.[0-9]+|\.)$/.exec(textOf(code, node));
    if (!m) continue;
    const whole = Number(m[1] || "0");
    out.push(edit("float_plus_one", node, `${whole + 1}${m[2]}`));
    if (whole > 0) out.push(edit("float_minus_one", node, `${whole - 1}${m[2]}`));
  }
  for (const type of ["true", "false"] as const) {
    for (const node of nodes.get(type) ?? []) {
      if (node.parent?.type === "return_statement" || inParameters(node)) continue;
      const flipped = type === "true" ? "False" : "True";
      out.push(edit(`${type}_to_${flipped.toLowerCase()}`, node, flipped));
    }
  }
  return out;
}

function edit(operator: string, node: Node, text: string): ProposedEdit {
  return replaceNode("wrong_constant", operator, true, node, text);
}

/** The `wrong_constant` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongConstantOperator: OperatorEntry = {
  bug_type: "wrong_constant",
  extension: true,
  meaning:
    "Extension: an integer or decimal literal moved by one (never a default value); a boolean literal outside a return flipped.",
  operators: [
    "const_minus_one",
    "const_plus_one",
    "false_to_true",
    "float_minus_one",
    "float_plus_one",
    "true_to_false",
  ],
  edits: wrongConstantEdits,
  examples: [
    { operator: "const_plus_one", body: "return 7", after: "return 8" },
    { operator: "const_minus_one", body: "return 7", after: "return 6" },
    { operator: "false_to_true", body: "a = False", after: "a = True" },
    { operator: "true_to_false", body: "a = True", after: "a = False" },
    { operator: "const_plus_one", body: "return a * 2", after: "return a * 3" },
    { operator: "const_plus_one", body: "a = -3", after: "a = -2" },
    { operator: "const_minus_one", body: "a = -3", after: "a = -4" },
    { operator: "float_plus_one", body: "return a * 0.5", after: "return a * 1.5" },
    { operator: "float_minus_one", body: "return a * 2.5", after: "return a * 1.5" },
    { operator: "true_to_false", body: "xs.sort(reverse=True)", after: "xs.sort(reverse=False)" },
  ],
};
