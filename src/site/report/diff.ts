/** One piece of a highlighted line: unchanged text or the edited part. */
export interface DiffPart {
  text: string;
  changed: boolean;
}

/**
 * Split a one-line edit into the common prefix, the changed middle and the
 * common suffix of the two lines, so a page can highlight exactly the
 * characters the mutation touched (`<` → `<=`), not the whole line.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(lineDiff("    if x < lo:", "    if x <= lo:"), {
 *   before: [{ text: "    if x <", changed: false }, { text: "", changed: true }, {
 *     text: " lo:",
 *     changed: false,
 *   }],
 *   after: [{ text: "    if x <", changed: false }, { text: "=", changed: true }, {
 *     text: " lo:",
 *     changed: false,
 *   }],
 * }); // the changed parts are "" and "="
 * ```
 */
export function lineDiff(before: string, after: string): { before: DiffPart[]; after: DiffPart[] } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start && end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) end++;
  const parts = (s: string): DiffPart[] =>
    [
      { text: s.slice(0, start), changed: false },
      { text: s.slice(start, s.length - end), changed: true },
      { text: s.slice(s.length - end), changed: false },
    ].filter((p) => p.text !== "" || p.changed);
  return { before: parts(before), after: parts(after) };
}

/** Escape text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/**
 * HTML of a snippet with its edited line shown as a unified diff: the old
 * line marked `-` and the new one `+`, changed characters in `<mark>`.
 * `line` is 1-based in `code` (the edited snippet); a deleted line
 * (`after === ""`) shows only the `-` line.
 */
export function snippetDiffHtml(code: string, line: number, before: string, after: string): string {
  const lines = code.replace(/\n$/, "").split("\n");
  const { before: b, after: a } = lineDiff(before, after);
  const render = (parts: DiffPart[]) =>
    parts.map((p) => p.changed ? `<mark>${escapeHtml(p.text)}</mark>` : escapeHtml(p.text)).join(
      "",
    );
  const out: string[] = [];
  const deleted = after === "";
  lines.forEach((text, i) => {
    if (i === line - 1) {
      out.push(`<span class="diff-del">- ${render(b)}</span>`);
      if (!deleted) out.push(`<span class="diff-add">+ ${render(a)}</span>`);
    }
    if (i === line - 1 && !deleted) return;
    out.push(`  ${escapeHtml(text)}`);
  });
  if (deleted && line - 1 >= lines.length) out.push(`<span class="diff-del">- ${render(b)}</span>`);
  return out.join("\n");
}

/** HTML of an unedited snippet, indented like {@link snippetDiffHtml}'s context lines. */
export function codeHtml(code: string): string {
  return code.replace(/\n$/, "").split("\n").map((line) => `  ${escapeHtml(line)}`).join("\n");
}
