import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { oneLine, textOf } from "./syntax.ts";

/**
 * `wrong_string` (extension): a string literal's text lost (`re.findall('[A-Z]+', s)`
 * → `re.findall('', s)`, `"db" + b` → `"" + b`) or an empty one given a space
 * (`''.join(xs)` → `' '.join(xs)`). The literal is replaced whole, quotes and
 * prefix kept; docstrings, f-strings, implicit concatenations and literals over
 * several lines are left alone.
 */
export function wrongStringEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const node of nodes.get("string") ?? []) {
    if (node.parent?.type === "expression_statement") continue;
    if (!oneLine(code, node.startIndex, node.endIndex)) continue;
    const start = node.children.find((c) => c?.type === "string_start");
    const end = node.children.find((c) => c?.type === "string_end");
    if (!start || !end || /f/i.test(textOf(code, start))) continue;
    if (node.children.some((c) => c?.type === "interpolation")) continue;
    const open = textOf(code, start);
    const close = textOf(code, end);
    const empty = start.endIndex === end.startIndex;
    out.push(
      edit(
        node,
        empty ? "empty_to_space" : "string_to_empty",
        `${open}${empty ? " " : ""}${close}`,
      ),
    );
  }
  return out;
}

function edit(node: Node, operator: string, text: string): ProposedEdit {
  return {
    bug_type: "wrong_string",
    operator,
    extension: true,
    start: node.startIndex,
    end: node.endIndex,
    text,
  };
}

/** The `wrong_string` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongStringOperator: OperatorEntry = {
  bug_type: "wrong_string",
  extension: true,
  meaning:
    "Extension: a string literal emptied, or an empty one given a space; replaced whole, never docstrings or f-strings.",
  operators: ["empty_to_space", "string_to_empty"],
  edits: wrongStringEdits,
  examples: [
    { operator: "string_to_empty", body: 'return a.split(",")', after: 'return a.split("")' },
    { operator: "empty_to_space", body: 'return "".join(xs)', after: 'return " ".join(xs)' },
  ],
};
