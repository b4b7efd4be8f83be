import type { Node } from "../python_parser.ts";
import { oneLine, type ProposedEdit, type SiteContext, wholeLines } from "./_syntax.ts";

/**
 * Extensions that leave a piece of the canonical out:
 *
 * - `drop_argument`: one keyword argument of a call forgotten
 *   (`sorted(xs, key=len)` → `sorted(xs)`, `l.sort(reverse=True)` → `l.sort()`).
 * - `missing_statement`: a statement that is a bare call deleted, whole lines
 *   (`hq.heapify(xs)`, `d.update(e)`), when its block keeps another statement.
 */
export function droppedCodeEdits(ctx: SiteContext): ProposedEdit[] {
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
      out.push(edit("drop_argument", "drop_keyword_argument", start, end, ""));
    });
  }
  for (const call of nodes.get("call") ?? []) {
    const statement = call.parent;
    if (statement?.type !== "expression_statement" || statement.namedChildren.length !== 1) {
      continue;
    }
    const siblings = statement.parent?.namedChildren.filter((c) => c && c.type !== "comment") ?? [];
    const lines = siblings.length >= 2 ? wholeLines(code, statement) : null;
    if (!lines) continue;
    out.push({
      ...edit("missing_statement", "delete_call_statement", lines[0], lines[1], ""),
      deletion: true,
      at: statement.startIndex,
    });
  }
  return out;
}

function edit(
  bug_type: string,
  operator: string,
  start: number,
  end: number,
  text: string,
): ProposedEdit {
  return { bug_type, operator, extension: true, start, end, text };
}
