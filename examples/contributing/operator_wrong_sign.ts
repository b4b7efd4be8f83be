/**
 * A new mutation operator, worked through: `wrong_sign`, a unary minus left
 * out (`return -d` → `return d`). In the kit this file would be
 * `src/mutate/operators/wrong_sign.ts`, registered by one line in `OPERATORS`
 * (src/mutate/operator_registry.ts); the test beside it plugs it in by
 * passing `[...OPERATORS, wrongSignOperator]` instead.
 */
import type { OperatorEntry, ProposedEdit, SiteContext } from "../../src/mutate/operator_entry.ts";

/**
 * `wrong_sign` sites: every unary minus whose operand is not a number literal
 * (`-3` moving to `3` is `wrong_constant`'s business). Dropping the minus keeps
 * the grouping: its operand binds at least as tightly as the minus did.
 */
export function wrongSignEdits(ctx: SiteContext): ProposedEdit[] {
  const out: ProposedEdit[] = [];
  for (const node of ctx.nodes.get("unary_operator") ?? []) {
    const operand = node.childForFieldName("argument");
    if (node.childForFieldName("operator")?.type !== "-" || !operand) continue;
    if (operand.type === "integer" || operand.type === "float") continue;
    out.push({
      bug_type: "wrong_sign",
      operator: "drop_minus",
      extension: true,
      start: node.startIndex,
      end: node.endIndex,
      text: ctx.code.slice(operand.startIndex, operand.endIndex),
    });
  }
  return out;
}

/** The registry entry: what the engine runs and what the reference prints. */
export const wrongSignOperator: OperatorEntry = {
  bug_type: "wrong_sign",
  extension: true,
  meaning: "Extension: a unary minus left out (`-x` → `x`), never on a number literal.",
  operators: ["drop_minus"],
  edits: wrongSignEdits,
  examples: [{ operator: "drop_minus", body: "return a * -b", after: "return a * b" }],
};
