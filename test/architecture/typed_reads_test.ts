/**
 * Tables are read through their specs: outside the reader module itself, no
 * program code calls `readRows<…>` or `rowsOf<…>` with a type argument, an
 * unchecked cast that lets a row type drift from the table it claims to
 * describe. Such code reads with `readTableRows(path, SPEC)` (or
 * `checkedRowsOf`), whose row type is derived from the spec and whose columns
 * are checked. Tests may still inspect arbitrary tables untyped.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FOLDERS = ["src", "scripts", "docs/data"];
/** The reader module defines the unchecked forms the checked ones are built on. */
const ALLOWED = new Set(["src/io/arrow_table.ts"]);
/** A call or reference with a type argument: `readRows<T>(…)`, `rowsOf<{ … }>(…)`. */
const UNCHECKED = /\b(readRows|rowsOf)\s*</;

/** Paths (relative to `root`) of the .ts/.js files under `folder`, recursively. */
async function* files(root: string, folder: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(join(root, folder)));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  for (const entry of entries) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory && entry.name !== "node_modules") yield* files(root, path);
    else if (entry.isFile && /\.(ts|js)$/.test(entry.name)) yield path;
  }
}

/** `file:line: text` of every line matching `pattern` in program files under `folders`. */
async function scan(
  root: string,
  folders: readonly string[],
  pattern: RegExp,
  skip: (path: string) => boolean = () => false,
): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    for await (const path of files(root, folder)) {
      if (path.endsWith("_test.ts") || ALLOWED.has(path) || skip(path)) continue;
      const lines = (await Deno.readTextFile(join(root, path))).split("\n");
      lines.forEach((line, i) => {
        if (pattern.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  return found.sort();
}

/** `file:line: text` of every unchecked typed read in program files under `folders`. */
const uncheckedReads = (root: string, folders: readonly string[]) => scan(root, folders, UNCHECKED);

Deno.test("program code reads tables through their specs, never an unchecked readRows<T>", async () => {
  assertEquals(await uncheckedReads(ROOT, FOLDERS), []);
});

Deno.test("the scan finds an unchecked read, and skips tests and the reader module", async () => {
  const root = `${await Deno.makeTempDir()}/`;
  await Deno.mkdir(`${root}src/io`, { recursive: true });
  await Deno.writeTextFile(
    `${root}src/stage.ts`,
    "const ok = await readTableRows(p, TASKS);\nconst rows = await readRows<Row>(p);\n",
  );
  await Deno.writeTextFile(`${root}src/stage_test.ts`, "await readRows<Row>(p);\n");
  await Deno.writeTextFile(`${root}src/io/arrow_table.ts`, "return rowsOf<T>(table);\n");
  assertEquals(await uncheckedReads(root, ["src"]), [
    "src/stage.ts:2: const rows = await readRows<Row>(p);",
  ]);
});

/**
 * Writes are typed the same way: `writeTable` takes `RowOf<typeof SPEC>[]`,
 * so program code writes whole rows. `withNulls` (rows that leave columns
 * out) is for tests, fixtures and benchmarks, and no rows are cast to
 * `Record<string, unknown>[]` on their way to a table.
 */
const PARTIAL_WRITE = /\bwithNulls\(|as unknown as Record<string, unknown>\[\]/;

/** The same for partial writes; benchmarks may write a few columns of a table too. */
const partialWrites = (root: string, folders: readonly string[]) =>
  scan(root, folders, PARTIAL_WRITE, (path) => path.startsWith("src/cli/bench/"));

Deno.test("program code writes whole rows: no withNulls, no rows cast to Record<string, unknown>[]", async () => {
  assertEquals(await partialWrites(ROOT, FOLDERS), []);
});

Deno.test("the scan finds a partial write, and skips tests and benchmarks", async () => {
  const root = `${await Deno.makeTempDir()}/`;
  await Deno.mkdir(`${root}src/cli/bench`, { recursive: true });
  await Deno.writeTextFile(`${root}src/stage.ts`, "await writeTable(n, withNulls(S, rows), S);\n");
  await Deno.writeTextFile(
    `${root}src/stage_test.ts`,
    "await writeTable(n, withNulls(S, r), S);\n",
  );
  await Deno.writeTextFile(
    `${root}src/cli/bench/b.ts`,
    "await writeTable(n, withNulls(S, r), S);\n",
  );
  assertEquals(await partialWrites(root, ["src"]), [
    "src/stage.ts:1: await writeTable(n, withNulls(S, rows), S);",
  ]);
});
