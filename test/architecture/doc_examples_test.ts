/**
 * Every `@example` in the kit's modules runs (test/docs/doc_examples_run_test.ts,
 * as `deno test --doc` would run it) and checks what it shows: its code is a plain
 * ```` ```ts ```` block (not `ignore`, `no-run` or `no-eval`, and not a bare
 * line after the tag, which the doc runner would skip) that asserts with
 * node:assert/strict. A data loader holds none: `deno test --doc` imports the
 * module, and a loader prints its table when imported.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { exampleModules, examplesOf, ROOT } from "../docs/doc_examples.ts";

const NOT_IMPORTABLE = ["docs/data/"];

/** One line per `@example` of `text` (the file `file`) that breaks the rule, as `file:line: why`. */
export function exampleProblems(file: string, text: string): string[] {
  const out: string[] = [];
  for (const { line, fence, code } of examplesOf(text)) {
    const where = `${file}:${line}`;
    if (NOT_IMPORTABLE.some((dir) => file.startsWith(dir))) {
      out.push(`${where}: a data loader cannot hold an @example (deno test --doc imports it)`);
    } else if (fence === null) {
      out.push(`${where}: @example is not followed by a \`\`\`ts block, so it never runs`);
    } else if (fence !== "ts") {
      out.push(`${where}: the example block is \`\`\`${fence}, not \`\`\`ts`);
    } else if (!code.includes('from "node:assert/strict"')) {
      out.push(`${where}: the example asserts nothing (import from node:assert/strict)`);
    }
  }
  return out;
}

Deno.test("exampleProblems flags a bare, ignored or unasserted example and passes a good one", () => {
  const block = (fence: string, body: string) =>
    `/**\n * Doc.\n *\n * @example\n * ${fence}\n * ${body}\n * \`\`\`\n */\n`;
  const assertLine = 'import { ok } from "node:assert/strict";';
  deepStrictEqual(exampleProblems("src/a.ts", block("```ts", assertLine)), []);
  deepStrictEqual(exampleProblems("src/a.ts", block("```ts ignore", assertLine)), [
    "src/a.ts:4: the example block is ```ts ignore, not ```ts",
  ]);
  deepStrictEqual(exampleProblems("src/a.ts", block("```ts", "f(1); // 2")), [
    "src/a.ts:4: the example asserts nothing (import from node:assert/strict)",
  ]);
  deepStrictEqual(exampleProblems("src/a.ts", "/**\n * @example f(1); // 2\n */\n"), [
    "src/a.ts:2: @example is not followed by a ```ts block, so it never runs",
  ]);
  deepStrictEqual(exampleProblems("docs/data/t.ts", block("```ts", assertLine)), [
    "docs/data/t.ts:4: a data loader cannot hold an @example (deno test --doc imports it)",
  ]);
});

Deno.test("every @example of src/, scripts/, docs/data/ and examples/ runs and asserts", () => {
  const problems: string[] = [];
  let examples = 0;
  for (const file of exampleModules()) {
    const text = Deno.readTextFileSync(`${ROOT}${file}`);
    examples += examplesOf(text).length;
    problems.push(...exampleProblems(file, text));
  }
  ok(examples > 0, "no @example found: the scan looks in the wrong place");
  deepStrictEqual(problems, []);
});
