import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import { wholeLines } from "./syntax.ts";

/**
 * `missing_statement` (extension): a statement that is a bare call deleted,
 * whole lines (`hq.heapify(xs)`, `d.update(e)`), when its block keeps another
 * statement.
 */
export function missingStatementEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const call of nodes.get("call") ?? []) {
    const statement = call.parent;
    if (statement?.type !== "expression_statement" || statement.namedChildren.length !== 1) {
      continue;
    }
    const siblings = statement.parent?.namedChildren.filter((c) => c && c.type !== "comment") ?? [];
    const lines = siblings.length >= 2 ? wholeLines(code, statement) : null;
    if (!lines) continue;
    out.push({
      ...edit("delete_call_statement", lines[0], lines[1], ""),
      deletion: true,
      at: statement.startIndex,
    });
  }
  return out;
}

function edit(operator: string, start: number, end: number, text: string): ProposedEdit {
  return { bug_type: "missing_statement", operator, extension: true, start, end, text };
}

/** The `missing_statement` entry of the operator registry (src/mutate/operator_registry.ts). */
export const missingStatementOperator: OperatorEntry = {
  bug_type: "missing_statement",
  extension: true,
  meaning:
    "Extension: a statement that is a bare call deleted (`xs.sort()`), whole lines, when its block keeps another.",
  operators: ["delete_call_statement"],
  edits: missingStatementEdits,
  examples: [
    { operator: "delete_call_statement", body: "xs.sort()\nreturn xs", after: "" },
  ],
  deletes: true,
};
