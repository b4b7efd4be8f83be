import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync } from "node:fs";

/**
 * CONTRIBUTING.md shows each extension point's worked example as a fenced
 * block whose info string names the file it shows (```` ```ts file=PATH ````).
 * The file is real code with a test beside it, so the example that a reader
 * copies is the one a test runs; this test keeps the two from drifting apart.
 */

const GUIDE = "CONTRIBUTING.md";

/** The worked-example blocks of a Markdown text, with the section they sit in. */
function exampleBlocks(
  markdown: string,
): { section: string; file: string; body: string; line: number }[] {
  const lines = markdown.split("\n");
  const blocks: { section: string; file: string; body: string; line: number }[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = /^###\s+(.+)$/.exec(lines[i]);
    if (heading) section = heading[1].trim();
    const open = /^(`{3,})\S*\s+file=(\S+)\s*$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    const end = lines.findIndex((l, j) => j > i && l === fence);
    assert(end > i, `${GUIDE}:${i + 1}: the block for ${open[2]} is never closed`);
    blocks.push({ section, file: open[2], body: lines.slice(i + 1, end).join("\n"), line: i + 1 });
    i = end;
  }
  return blocks;
}

/** The `### ` headings under `## Worked examples`. */
function workedExampleSections(markdown: string): string[] {
  const start = markdown.indexOf("\n## Worked examples");
  if (start < 0) return [];
  const rest = markdown.slice(start + 1);
  const next = rest.indexOf("\n## ", 1);
  const part = next < 0 ? rest : rest.slice(0, next);
  return [...part.matchAll(/^###\s+(.+)$/gm)].map((m) => m[1].trim());
}

Deno.test("exampleBlocks finds file blocks and their sections, and names an unclosed one", () => {
  const md = "### A metric\n\n```ts file=a.ts\nconst x = 1;\n```\n\n### B\n```ts\nnot one\n```\n";
  assertEquals(exampleBlocks(md), [{
    section: "A metric",
    file: "a.ts",
    body: "const x = 1;",
    line: 3,
  }]);
  let message = "";
  try {
    exampleBlocks("```ts file=b.ts\nopen");
  } catch (e) {
    message = (e as Error).message;
  }
  assert(message.includes("CONTRIBUTING.md:1") && message.includes("b.ts"), message);
});

Deno.test("every worked example in CONTRIBUTING.md is the file it names, and that file has a test", () => {
  const markdown = Deno.readTextFileSync(GUIDE);
  const blocks = exampleBlocks(markdown);
  const sections = workedExampleSections(markdown);
  assert(
    sections.length >= 6,
    `${GUIDE}: expected a worked example per extension point, found ${sections.length} sections`,
  );
  for (const section of sections) {
    assert(
      blocks.some((b) => b.section === section),
      `${GUIDE}: section "${section}" shows no example file (a \`\`\`ts file=PATH block)`,
    );
  }
  for (const b of blocks) {
    assert(existsSync(b.file), `${GUIDE}:${b.line}: ${b.file} does not exist`);
    assertEquals(
      b.body + "\n",
      Deno.readTextFileSync(b.file),
      `${GUIDE}:${b.line}: the block differs from ${b.file}`,
    );
    const testFile = b.file.replace(/\.(ts|js)$/, "_test.$1");
    assert(
      b.file.endsWith("_test.ts") || existsSync(testFile),
      `${GUIDE}:${b.line}: ${b.file} has no test beside it (${testFile})`,
    );
  }
});
