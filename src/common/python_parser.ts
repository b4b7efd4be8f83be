// Shared by the tasks stage (syntax checks of sources) and the mutate stage,
// so it sits in src/common, below both: imports point down the data flow.

import { Edit, Language, type Node, Parser, type Point, type Tree } from "web-tree-sitter";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export type { Node, Tree };

/**
 * A tree-sitter Python parser, loaded once per process. Trees live in wasm
 * memory: callers must `delete()` every tree they get, or memory grows with
 * each parse.
 */
export interface PythonParser {
  /** Parse Python source (offsets and columns in the tree are UTF-16 code units). */
  parse(code: string): Tree;
  /**
   * Parse `edited`, the result of replacing `old.slice(start, end)` by `text`
   * in the text of `tree`, reusing `tree` (incremental: ~3x faster than a
   * fresh parse here). `tree` itself is left unchanged.
   */
  reparse(tree: Tree, old: string, start: number, end: number, text: string): Tree;
}

const GRAMMAR = "node_modules/tree-sitter-python/tree-sitter-python.wasm";

/**
 * Path of the pinned tree-sitter-python grammar wasm: looked up beside the
 * repository root this file lives in, then under the working directory.
 */
export function grammarWasmPath(): string {
  const candidates = [
    join(fileURLToPath(new URL("../../", import.meta.url)), GRAMMAR),
    join(Deno.cwd(), GRAMMAR),
  ];
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      `${GRAMMAR} not found (looked in ${candidates.join(", ")}); run \`deno install\``,
    );
  }
  return found;
}

let loading: Promise<PythonParser> | undefined;

/**
 * The process-wide Python parser. The first call initialises web-tree-sitter
 * and loads the grammar (~50 ms); later calls return the same handle, so a
 * bench or stage pays that once.
 */
export function loadPythonParser(): Promise<PythonParser> {
  loading ??= createParser();
  return loading;
}

async function createParser(): Promise<PythonParser> {
  await Parser.init();
  const language = await Language.load(await Deno.readFile(grammarWasmPath()));
  const parser = new Parser();
  parser.setLanguage(language);
  const parse = (code: string, old?: Tree): Tree => {
    const tree = parser.parse(code, old);
    if (!tree) throw new Error("tree-sitter returned no tree");
    return tree;
  };
  return {
    parse: (code) => parse(code),
    reparse(tree, old, start, end, text) {
      const edited = old.slice(0, start) + text + old.slice(end);
      const copy = tree.copy();
      try {
        copy.edit(
          new Edit({
            startIndex: start,
            oldEndIndex: end,
            newEndIndex: start + text.length,
            startPosition: pointAt(old, start),
            oldEndPosition: pointAt(old, end),
            newEndPosition: pointAt(edited, start + text.length),
          }),
        );
        return parse(edited, copy);
      } finally {
        copy.delete();
      }
    },
  };
}

/** Row and column (UTF-16 code units, 0-based) of string index `index`. */
export function pointAt(text: string, index: number): Point {
  const lineStart = index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
  let row = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < lineStart; i = text.indexOf("\n", i + 1)) row++;
  return { row, column: index - lineStart };
}
