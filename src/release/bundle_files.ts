import { basename, join } from "node:path";
import { fileExists } from "../io/file_exists.ts";
import { BundleError, type BundleProblem } from "./bundle_problem.ts";
import type { BundlePaths } from "./bundle_types.ts";
import type { Findings } from "./findings.ts";
import { parseSha256Sums } from "./sha256sums.ts";

/**
 * The bundle's files, relative to its folder, as the release's README lays
 * them out (revision ace5c3f): the two aggregate JSON files live in
 * `results/` beside the per-model files, the five statistics files in
 * `tests/`. The kit cannot score without the first five; the others hold
 * numbers to compare, and their absence is a finding (unless SHA256SUMS
 * lists them: then the bundle is incomplete and refused).
 */
export const BUNDLE_FILES = {
  queries: "data/queries.jsonl",
  corpus: "data/corpus.jsonl",
  cache: "data/execution_cache.jsonl",
  results: "results",
  invocations: "results/invocation_table.json",
  leaderboard: "results/full_leaderboard.json",
  pairwise: "tests/pairwise_tests.json",
  intervals: "tests/confidence_intervals.json",
  pairedDifferences: "tests/paired_difference_intervals.json",
  embeddingSummary: "tests/embedding_summary.json",
} as const;

/** The files without which nothing can be recomputed. */
const REQUIRED = new Set<keyof BundlePaths>([
  "queries",
  "corpus",
  "cache",
  "results",
  "invocations",
]);

/** Other accepted places of a bundle file (a draft layout with the JSON files at the root). */
const ROOT_FALLBACK: Partial<Record<keyof BundlePaths, string>> = {
  leaderboard: "full_leaderboard.json",
  invocations: "invocation_table.json",
};

/** The folder of the saved matrices. */
export const EMBEDDINGS_DIR = "embeddings";

/**
 * Where to read the bundle: `dir` itself when it exists, else the same
 * folder under `EXECRET_MIRROR` (by its path, then by its last component),
 * so CI can hold the bundle in a shared mirror like the other task sets.
 */
export async function resolveBundleDir(dir: string): Promise<string> {
  const candidates = [dir];
  const mirror = Deno.env.get("EXECRET_MIRROR");
  if (mirror) candidates.push(join(mirror, dir), join(mirror, basename(dir)));
  for (const c of candidates) {
    if (await isDir(c)) return c;
  }
  const where = mirror ? ` (nor under EXECRET_MIRROR=${mirror})` : "";
  throw new BundleError([{ locator: dir, reason: `no such bundle folder${where}` }]);
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Find the bundle's files. A missing required file, or a missing file that
 * the bundle's own SHA256SUMS lists, is a problem; another missing file is a
 * finding and its path null.
 */
export async function locateFiles(
  root: string,
  problems: BundleProblem[],
  findings: Findings,
): Promise<BundlePaths> {
  const listed = await listedFiles(root, problems);
  const files = {} as Record<keyof BundlePaths, string | null>;
  for (const [key, rel] of Object.entries(BUNDLE_FILES) as [keyof BundlePaths, string][]) {
    const places = [rel, ROOT_FALLBACK[key]].filter((p): p is string => p !== undefined);
    let found: string | null = null;
    for (const place of places) {
      if (await fileExists(join(root, place))) {
        found = join(root, place);
        break;
      }
    }
    files[key] = found;
    if (found !== null) continue;
    if (REQUIRED.has(key)) problems.push({ locator: join(root, rel), reason: "missing file" });
    else if (listed.has(rel)) {
      problems.push({ locator: join(root, rel), reason: "listed in SHA256SUMS but missing" });
    } else findings.note(join(root, rel), "", "file_absent", rel);
  }
  // Every other listed file must be there too: a bundle with a hole is not the release.
  for (const rel of listed) {
    if (Object.values(BUNDLE_FILES).includes(rel as never)) continue;
    if (!(await fileExists(join(root, rel)))) {
      problems.push({ locator: join(root, rel), reason: "listed in SHA256SUMS but missing" });
    }
  }
  return files as unknown as BundlePaths;
}

/** The paths the bundle's SHA256SUMS lists (none when it has no such file). */
async function listedFiles(root: string, problems: BundleProblem[]): Promise<Set<string>> {
  const path = join(root, "SHA256SUMS");
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return new Set();
    throw e;
  }
  try {
    return new Set(parseSha256Sums(text, path).map((e) => e.path));
  } catch (e) {
    problems.push({ locator: path, reason: (e as Error).message.replace(`${path}: `, "") });
    return new Set();
  }
}

/** Every file under `dir` with the given ending, as paths relative to `dir`, sorted. */
export async function filesUnder(dir: string, ending: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await filesUnder(dir, ending, rel));
    else if (e.isFile && e.name.endsWith(ending)) out.push(rel);
  }
  return out.sort();
}

/** Where a problem is, and what it is. */
export type Report = (locator: string, reason: string) => void;

/**
 * Parse a JSON file; a syntax error is reported as `file:line:column`, since
 * a bundle's JSON files are large and the engine only gives an offset.
 */
export async function readJsonFile(file: string, report: Report): Promise<unknown> {
  // A byte-order mark is legal at the start of a UTF-8 file, not in JSON.
  const text = (await Deno.readTextFile(file)).replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    if (!at) {
      report(file, `malformed JSON: ${message.split("\n")[0]}`);
      return undefined;
    }
    const offset = Number(at[1]);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    report(`${file}:${line}:${column}`, "malformed JSON: unexpected input");
    return undefined;
  }
}
