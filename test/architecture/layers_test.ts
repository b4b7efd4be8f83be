/**
 * Imports point down the data flow: the CLI (src/cli/, and the benchmarks in
 * src/bench/, which are commands) may import any stage, but no stage, table
 * or I/O module imports the CLI. Shared pieces a stage needs from "above"
 * (UserError once lived in src/cli/command.ts) move down instead.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const UPPER = ["cli/", "bench/"];

/** `file:line: imports spec` for each import of src/cli/ from a module outside the upper layers. */
export function upwardImports(file: string, text: string): string[] {
  if (UPPER.some((dir) => file.startsWith(dir)) || file.endsWith("_test.ts")) return [];
  const out: string[] = [];
  text.split("\n").forEach((line, i) => {
    const m = /(?:from|import)\s*\(?\s*["']([^"']+)["']/.exec(line);
    if (!m || !m[1].startsWith(".")) return;
    const target = new URL(m[1], `file:///src/${file}`).pathname.slice("/src/".length);
    if (target.startsWith("cli/")) out.push(`src/${file}:${i + 1}: imports ${m[1]}`);
  });
  return out;
}

function* modules(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(`${SRC}${dir}`)) {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) yield* modules(path);
    else if (e.isFile && path.endsWith(".ts")) yield path;
  }
}

Deno.test("upwardImports finds a stage importing the CLI, and allows the CLI and benches", () => {
  const line = 'import { UserError } from "../cli/command.ts";';
  deepStrictEqual(upwardImports("embed/stage.ts", line), [
    "src/embed/stage.ts:1: imports ../cli/command.ts",
  ]);
  deepStrictEqual(upwardImports("bench/oracle.ts", line), []);
  deepStrictEqual(upwardImports("cli/main.ts", 'import { x } from "./command.ts";'), []);
  deepStrictEqual(upwardImports("io/a.ts", 'import { x } from "./b.ts";'), []);
});

Deno.test("no module below the CLI imports src/cli/", () => {
  const found: string[] = [];
  let count = 0;
  for (const file of modules("")) {
    count++;
    found.push(...upwardImports(file, Deno.readTextFileSync(`${SRC}${file}`)));
  }
  ok(count > 100, `scanned only ${count} modules`);
  deepStrictEqual(found, []);
});
