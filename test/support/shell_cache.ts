/**
 * The kit's cache folder as the shell that started the tests names it
 * (`out/cache`, or `EXECRET_CACHE` / `EXECRET_OUT`), fixed when this module
 * is loaded: test runners load every test module before the first test
 * runs, and tests move `EXECRET_OUT` and `EXECRET_CACHE` to temporary
 * folders while they run (the fast suite runs ~120 files in one process).
 * Absolute, since the kit's default (`out/`) is relative to the working
 * directory.
 *
 * @module
 */
import { resolve } from "node:path";
import { cacheDir } from "../../src/io/paths.ts";
import { ensureSnapshot } from "../../src/oracle/pool.ts";

/** The shell's cache folder (see the module comment). */
export const SHELL_CACHE: string = resolve(cacheDir());

/**
 * The Pyodide memory snapshot of {@link SHELL_CACHE}, made there when
 * missing. A test that restores Pyodide reads it here: `ensureSnapshot()`
 * with no folder looks under whatever `EXECRET_OUT` an earlier test left,
 * and made a snapshot of its own there (~7 CPU-s; the interpreter-floor
 * test took 11 s in the fast suite instead of 1).
 */
export function shellSnapshot(): Promise<string> {
  return ensureSnapshot(SHELL_CACHE);
}
