/**
 * The `@example` blocks of the kit's modules, found once for the two tests
 * that use them: test/architecture/doc_examples_test.ts (each is a plain
 * `ts` block that asserts) and test/docs/doc_examples_run_test.ts (each runs).
 */
import { fileURLToPath } from "node:url";

/** The repository root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Folders whose modules may hold examples (docs/data/'s loaders are checked to hold none). */
export const EXAMPLE_FOLDERS = ["src", "scripts", "docs/data", "examples"];

/** One `@example` tag of a module. */
export interface Example {
  /** 1-based line of the tag. */
  line: number;
  /** The info string of the fenced block after the tag (`"ts"`), or null when none follows. */
  fence: string | null;
  /** The block's code with the JSDoc ` * ` prefixes removed ("" without a block). */
  code: string;
}

/** Every `@example` tag of a module's text, with the block that follows it. */
export function examplesOf(text: string): Example[] {
  const lines = text.split("\n");
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*@example\b/.test(lines[i])) continue;
    const open = /^\s*\*\s*```(.*)$/.exec(lines[i + 1] ?? "");
    if (!open) {
      out.push({ line: i + 1, fence: null, code: "" });
      continue;
    }
    let end = i + 2;
    while (end < lines.length && !/^\s*\*\s*```\s*$/.test(lines[end])) end++;
    const code = lines.slice(i + 2, end).map((l) => l.replace(/^\s*\* ?/, "")).join("\n");
    out.push({ line: i + 1, fence: open[1].trim(), code });
    i = end;
  }
  return out;
}

/** Paths (relative to the root, sorted) of the non-test modules of {@link EXAMPLE_FOLDERS}. */
export function exampleModules(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(`${ROOT}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory && !entry.name.startsWith(".")) walk(path);
      else if (entry.isFile && path.endsWith(".ts") && !path.endsWith("_test.ts")) files.push(path);
    }
  };
  for (const folder of EXAMPLE_FOLDERS) walk(folder);
  return files.sort();
}
