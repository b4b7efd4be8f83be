import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { oneLine } from "./syntax.ts";

/**
 * `drop_argument` (extension): one keyword argument of a call forgotten
 * (`sorted(xs, key=len)` → `sorted(xs)`, `l.sort(reverse=True)` → `l.sort()`).
 */
export function dropArgumentEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const call of nodes.get("call") ?? []) {
    const args = call.childForFieldName("arguments");
    if (args?.type !== "argument_list" || !oneLine(code, args.startIndex, args.endIndex)) continue;
    const all = args.namedChildren.filter((a): a is Node => a !== null);
    if (all.some((a) => a.type === "comment")) continue;
    all.forEach((arg, i) => {
      if (arg.type !== "keyword_argument") return;
      // With the comma before it; the first argument takes the comma after it instead.
      const start = i > 0 ? all[i - 1].endIndex : arg.startIndex;
      const end = i > 0 ? arg.endIndex : all[i + 1]?.startIndex ?? arg.endIndex;
      out.push(edit("drop_keyword_argument", start, end, ""));
    });
  }
  return out;
}

function edit(operator: string, start: number, end: number, text: string): ProposedEdit {
  return { bug_type: "drop_argument", operator, extension: true, start, end, text };
}

/** The `drop_argument` entry of the operator registry (src/mutate/operator_registry.ts). */
export const dropArgumentOperator: OperatorEntry = {
  bug_type: "drop_argument",
  extension: true,
  meaning: "Extension: a keyword argument left out (`sorted(xs, key=len)` → `sorted(xs)`).",
  operators: ["drop_keyword_argument"],
  edits: dropArgumentEdits,
  examples: [
    {
      operator: "drop_keyword_argument",
      body: "return sorted(xs, key=len)",
      after: "return sorted(xs)",
    },
  ],
};
