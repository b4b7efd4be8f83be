/**
 * The committed `leaderboard/` folder: one folder per entry,
 * `leaderboard/<benchmark>/<name>/` holding `meta.json` and the run file it
 * names. `<name>` is the entry's config name on the board.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's leaderboard folder. */
export const LEADERBOARD_DIR = fileURLToPath(new URL("../../leaderboard/", import.meta.url));

/**
 * The leaderboard folder runs read and `leaderboard add` writes:
 * `EXECRET_LEADERBOARD`, else the repository's.
 */
export function leaderboardDir(): string {
  return Deno.env.get("EXECRET_LEADERBOARD") || LEADERBOARD_DIR;
}

/** An entry's place: its folder, the benchmark folder it is in, and its name. */
export interface EntryPath {
  /** The entry's folder. */
  dir: string;
  /** The entry's folder as shown in messages (relative to the working directory). */
  shown: string;
  benchmark: string;
  /** The folder's name: the entry's config name on the board. */
  name: string;
}

/** An entry's name: a config name ([a-z0-9][a-z0-9._-]*), as data/invocations.json's. */
export const ENTRY_NAME = /^[a-z0-9][a-z0-9._-]*$/;

/** Where `dir` (an entry folder) sits: its benchmark is its parent folder's name. */
export function entryPath(dir: string): EntryPath {
  const abs = resolve(dir);
  const parts = abs.split("/").filter((p) => p !== "");
  const shown = relative(Deno.cwd(), abs) || ".";
  return { dir: abs, shown, benchmark: parts.at(-2) ?? "", name: parts.at(-1) ?? "" };
}

/**
 * Every entry folder under `root` (`<root>/<benchmark>/<name>/`), sorted, or
 * only those of `benchmark`. A folder without a meta.json is still listed
 * (verifying it says what is missing).
 */
export function listEntries(root: string = leaderboardDir(), benchmark?: string): EntryPath[] {
  const out: EntryPath[] = [];
  const dirs = (path: string) => {
    try {
      return [...Deno.readDirSync(path)].filter((e) => e.isDirectory).map((e) => e.name).sort();
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return [];
      throw e;
    }
  };
  for (const b of dirs(root)) {
    if (benchmark !== undefined && b !== benchmark) continue;
    for (const name of dirs(join(root, b))) out.push(entryPath(join(root, b, name)));
  }
  return out;
}
