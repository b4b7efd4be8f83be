import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The committed fixture bundle (test/fixtures/release/paper, every documented case in one bundle). */
export const FIXTURE_BUNDLE = fileURLToPath(
  new URL("../fixtures/release/paper", import.meta.url),
);

/**
 * A temporary copy of the fixture bundle, so a test can change one thing in
 * it. `edit` receives the copy's folder; the copy is the caller's to remove.
 */
export async function brokenBundle(edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "execret-release-" });
  await copyDir(FIXTURE_BUNDLE, dir);
  await edit(dir);
  return dir;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** Read, change and rewrite a JSON file of a bundle copy. */
export async function editJson(
  path: string,
  change: (value: Record<string, unknown>) => void,
): Promise<void> {
  const value = JSON.parse(await Deno.readTextFile(path));
  change(value);
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

/** Rewrite the lines of a JSONL file of a bundle copy (1-based line numbers kept by index). */
export async function editLines(
  path: string,
  change: (lines: string[]) => string[],
): Promise<void> {
  const lines = (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "");
  await Deno.writeTextFile(path, change(lines).join("\n") + "\n");
}

/** Change each row of a JSONL file of a bundle copy. */
export function editRows(
  path: string,
  change: (row: Record<string, unknown>, index: number) => void,
): Promise<void> {
  return editLines(path, (lines) =>
    lines.map((l, i) => {
      const row = JSON.parse(l);
      change(row, i);
      return JSON.stringify(row);
    }));
}

/** A results file's top results, for edits: `(query index, rank index) → entry`. */
export type TopEntry = Record<string, unknown> & { test_results: string[] };

/** Change the top results of one results file of a bundle copy. */
export function editTop(
  path: string,
  change: (top: TopEntry[][]) => void,
): Promise<void> {
  return editJson(path, (v) => {
    change((v.per_query as { top_results: TopEntry[] }[]).map((pq) => pq.top_results));
  });
}
