/**
 * Which test files make the fast suite, which test/fast_suite.ts runs as one
 * module: `deno test` evaluates every test module in a fresh isolate, which
 * costs ≈0.2–0.4 CPU-s per module before its first test (measured with empty
 * test modules: 11 took 4 CPU-s, 1 took 0.4), and the fast suite runs its
 * ~120 modules one after another. Imported from one module, every test file is
 * evaluated once in one isolate and registers its tests as it would alone;
 * failures still point at the test's own file and line.
 *
 * The files: every test file `deno test` would find under the project
 * (`*_test.ts`, `*.test.ts`, `test.ts`, and their js/tsx variants), outside
 * the folders deno.json excludes and outside the files and folders that run
 * as `make unit` jobs of their own (test/run_unit.ts), in path order, as
 * `deno test` orders them.
 *
 * @module
 */
import { join, relative } from "node:path";
import { OWN_JOB_PATHS } from "./run_unit.ts";

export const ROOT = new URL("../", import.meta.url).pathname;
/** What runs as jobs of its own (test/run_unit.ts), then what deno.json excludes, and git's folder. */
export const SKIP = new Set([
  ...OWN_JOB_PATHS,
  "out",
  "node_modules",
  ".tools",
  ".git",
  "docs/.observablehq",
  ".observablehq",
]);
const TEST_FILE = /(^|[._])test\.(ts|tsx|mts|js|jsx|mjs)$/;

/** Test files under `dir` (relative to the project), sorted by path. */
export function fastSuiteFiles(dir = ROOT): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const full = join(path, entry.name);
      const rel = relative(dir, full);
      if (SKIP.has(rel)) continue;
      if (entry.isDirectory) walk(full);
      else if (entry.isFile && TEST_FILE.test(entry.name)) found.push(rel);
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * The files of shard `spec` (`i/n`, 0 ≤ i < n): every n-th from the i-th, so
 * neighbouring files (often alike in cost) land in different shards. All of
 * them without a spec; anything else is an error.
 */
export function shardOf(files: string[], spec: string | undefined): string[] {
  if (spec === undefined || spec === "") return files;
  const m = spec.match(/^(\d+)\/(\d+)$/);
  const [i, n] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
  if (!(n >= 1 && i < n)) {
    throw new Error(`EXECRET_TEST_SHARD: expected i/n with 0 ≤ i < n, got "${spec}"`);
  }
  return files.filter((_, k) => k % n === i);
}
