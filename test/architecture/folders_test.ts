/**
 * What the folders of src/ promise, checked on every import (tests aside):
 *
 * - **Down the data flow.** A folder imports only folders below it in
 *   {@link FOLDER_ORDER} (shared pieces sit low: io, common, tables), so the
 *   stages read as a pipeline and no two folders lean on each other.
 * - **`_` means private.** A module whose name starts with `_` is imported
 *   only from its own folder (or the folders inside it).
 * - **`mod.ts` is a face.** A folder has a `mod.ts` only if modules outside
 *   the folder import it.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCANNED = ["src", "scripts", "docs", "examples", "test"];

/**
 * src/'s folders from the bottom of the data flow to the top: what every
 * stage shares (io, common, tables) and the paper's release bundle, which the
 * stages read as an input; then the stages in the order data flows through
 * them, each in the folder of its name; then what reads a finished run
 * (check, sql), the orchestrator (pipeline), the site built from a run, and
 * the command line over all of it.
 */
export const FOLDER_ORDER: readonly string[] = [
  "io",
  "common",
  "tables",
  "release",
  "tasks",
  "mutate",
  "oracle",
  "embed",
  "score",
  "rerank",
  "leaderboard",
  "stats",
  "compare",
  "results",
  "check",
  "sql",
  "pipeline",
  "site",
  "cli",
];

const LAYER = new Map(FOLDER_ORDER.map((f, i) => [f, i]));

/** Every import of a module: its specifier and the line it is on. */
function imports(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = [];
  text.split("\n").forEach((l, i) => {
    for (const m of l.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      if (m[1].startsWith(".")) out.push({ spec: m[1], line: i + 1 });
    }
  });
  return out;
}

function* modules(dir: string): Generator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(join(ROOT, dir))];
  } catch {
    return;
  }
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory && !e.name.startsWith(".")) yield* modules(path);
    else if (e.isFile && /\.(ts|js)$/.test(e.name)) yield path;
  }
}

/** `src/<folder>/...` → folder, or null for a path outside src/. */
function srcFolder(path: string): string | null {
  const m = /^src\/([^/]+)\//.exec(path);
  return m ? m[1] : null;
}

/** Problems of one module's imports (`file:line: ...`), by the three rules. */
export function folderProblems(
  file: string,
  text: string,
  moduleImporters?: Set<string>,
): string[] {
  const problems: string[] = [];
  const from = srcFolder(file);
  for (const { spec, line } of imports(text)) {
    const target = normalize(join(dirname(file), spec));
    const to = srcFolder(target);
    const at = `${file}:${line}: imports ${spec}`;
    if (!file.endsWith("_test.ts") && from && to && from !== to) {
      const [a, b] = [LAYER.get(from), LAYER.get(to)];
      if (a === undefined) problems.push(`${at} (src/${from}/ is not in FOLDER_ORDER)`);
      else if (b === undefined) problems.push(`${at} (src/${to}/ is not in FOLDER_ORDER)`);
      else if (b > a) problems.push(`${at}: up the data flow (${from} → ${to})`);
    }
    const name = target.slice(target.lastIndexOf("/") + 1);
    if (name.startsWith("_") && !relative(dirname(target), dirname(file)).startsWith("..")) {
      // inside its folder
    } else if (name.startsWith("_")) problems.push(`${at}: private to ${dirname(target)}/`);
    if (name === "mod.ts" && dirname(target) !== dirname(file)) moduleImporters?.add(target);
  }
  // A face may also be reached by URL (a module bundled or spawned by path).
  for (
    const m of text.matchAll(/new URL\(\s*["'](\.[^"']*\/mod\.ts)["']\s*,\s*import\.meta\.url/g)
  ) {
    const target = normalize(join(dirname(file), m[1]));
    if (dirname(target) !== dirname(file)) moduleImporters?.add(target);
  }
  return problems;
}

Deno.test("folderProblems: an import up the flow, of another folder's private module", () => {
  deepStrictEqual(folderProblems("src/oracle/a.ts", 'import { m } from "../stats/median.ts";'), [
    "src/oracle/a.ts:1: imports ../stats/median.ts: up the data flow (oracle → stats)",
  ]);
  deepStrictEqual(folderProblems("src/stats/a.ts", 'import { m } from "../oracle/b.ts";'), []);
  deepStrictEqual(folderProblems("src/embed/a.ts", 'import { x } from "./providers/_x.ts";'), [
    "src/embed/a.ts:1: imports ./providers/_x.ts: private to src/embed/providers/",
  ]);
  deepStrictEqual(folderProblems("src/embed/providers/b.ts", 'import { x } from "./_x.ts";'), []);
  deepStrictEqual(folderProblems("src/cli/bench/a.ts", 'import { x } from "../command.ts";'), []);
  // Tests may reach up (a stage's test may run the pipeline), but not into another's privates.
  deepStrictEqual(
    folderProblems("src/tasks/a_test.ts", 'import { x } from "../pipeline/y.ts";'),
    [],
  );
});

Deno.test("every import points down the data flow, `_` is private, mod.ts is a face", () => {
  const problems: string[] = [];
  const importedMods = new Set<string>();
  let count = 0;
  for (const top of SCANNED) {
    for (const file of modules(top)) {
      // This file's samples are strings that look like imports.
      if (file === "test/architecture/folders_test.ts") continue;
      count++;
      problems.push(...folderProblems(file, Deno.readTextFileSync(join(ROOT, file)), importedMods));
    }
  }
  ok(count > 300, `scanned only ${count} modules`);
  deepStrictEqual(problems, []);
  for (const folder of Deno.readDirSync(join(ROOT, "src"))) {
    if (!folder.isDirectory) continue;
    ok(LAYER.has(folder.name), `src/${folder.name}/ has no place in FOLDER_ORDER`);
    const mod = `src/${folder.name}/mod.ts`;
    try {
      Deno.statSync(join(ROOT, mod));
    } catch {
      continue;
    }
    ok(
      importedMods.has(mod),
      `${mod} is no folder's face: nothing outside src/${folder.name}/ imports it`,
    );
  }
});

Deno.test("CONTRIBUTING.md draws src/'s folders in FOLDER_ORDER, each one it has", () => {
  const guide = Deno.readTextFileSync(join(ROOT, "CONTRIBUTING.md"));
  const drawing = /```text\nsrc\/\n([\s\S]*?)```/.exec(guide);
  ok(drawing, "CONTRIBUTING.md has no ```text drawing of src/");
  const drawn = [...drawing[1].matchAll(/^ {2}([a-z_]+)\/ /gm)].map((m) => m[1]);
  deepStrictEqual(drawn, [...FOLDER_ORDER]);
  const present = [...Deno.readDirSync(join(ROOT, "src"))].filter((e) => e.isDirectory);
  deepStrictEqual(present.map((e) => e.name).sort(), [...FOLDER_ORDER].sort());
});
