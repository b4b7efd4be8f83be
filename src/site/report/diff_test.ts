import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { codeHtml, escapeHtml, lineDiff, snippetDiffHtml } from "./diff.ts";

Deno.test("lineDiff isolates the edited characters", () => {
  const d = lineDiff("    if x < lo:", "    if x <= lo:");
  assertEquals(d.before, [
    { text: "    if x <", changed: false },
    { text: "", changed: true },
    { text: " lo:", changed: false },
  ]);
  assertEquals(d.after[1], { text: "=", changed: true });
});

Deno.test("lineDiff of a swap marks the whole differing span", () => {
  const d = lineDiff("a, b = b, a % b", "a, b = a % b, b");
  assertEquals(d.before.map((p) => p.changed ? p.text : "").join(""), "b, a %");
  assertEquals(d.after.map((p) => p.changed ? p.text : "").join(""), "a % b,");
});

Deno.test("snippetDiffHtml shows - and + lines in place of the edited line", () => {
  const code = "def f(x):\n    return x + 1\n";
  const html = snippetDiffHtml(code, 2, "    return x - 1", "    return x + 1");
  const lines = html.split("\n");
  assertEquals(lines[0], "  def f(x):");
  ok(lines[1].startsWith('<span class="diff-del">-     return x <mark>-</mark>'));
  ok(lines[2].startsWith('<span class="diff-add">+     return x <mark>+</mark>'));
  assertEquals(lines.length, 3);
});

Deno.test("snippetDiffHtml of a deleted line keeps the following lines", () => {
  const code = "def f(x):\n    return x\n";
  const html = snippetDiffHtml(code, 2, "    if x < 0: return 0", "");
  const lines = html.split("\n");
  assertEquals(lines.length, 3);
  ok(lines[1].includes("diff-del"));
  assertEquals(lines[2], "      return x");
});

Deno.test("escapeHtml", () => {
  assertEquals(escapeHtml(`<a href="x">&'`), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
});

Deno.test("codeHtml indents and escapes every line", () => {
  assertEquals(codeHtml("if a < b:\n    pass\n"), "  if a &lt; b:\n      pass");
});
