/**
 * The real MBPP and HumanEval files for the tests that need them, obtained
 * the way the kit obtains them ({@link obtainSource}): from the folder
 * `EXECRET_MIRROR` names when it is set; else from the kit's verified source
 * cache, which `make reproduce` fills (`out/cache/sources`, or under
 * `EXECRET_CACHE` / `EXECRET_OUT`); else by the official download
 * (`EXECRET_MBPP_URL` / `EXECRET_HUMANEVAL_URL` override the address), which
 * is verified and cached there for the next test. When none of them has the
 * file, the test fails with one line naming `EXECRET_MIRROR`: a real-data
 * test never passes, nor is skipped, on nothing.
 *
 * @module
 */
import { resolve } from "node:path";
import {
  loadManifest,
  obtainSource,
  sourceCacheDir,
  SourceError,
  type SourceFile,
} from "../../src/tasks/external.ts";

/** The task sets of data/sources.json that the real-data tests read. */
export type RealTaskSet = "mbpp" | "humaneval";

/**
 * The source cache as the shell that started the tests names it, fixed when
 * this module is loaded (test runners load every test module before the
 * first test runs): tests move `EXECRET_OUT` and `EXECRET_CACHE` to
 * temporary folders while they run, and the files `make reproduce` cached in
 * the checkout must be found all the same. Absolute, since the kit's default
 * (`out/`) is relative to the working directory.
 */
const SHELL_SOURCE_CACHE = resolve(sourceCacheDir());

/** The mirror folder, if the environment names one (read when asked, as the kit does). */
function mirror(): string | undefined {
  return Deno.env.get("EXECRET_MIRROR") || undefined;
}

/**
 * One real task set's verified records (in id order) and where they came
 * from; a one-line {@link SourceError} naming `EXECRET_MIRROR` when neither
 * the mirror, the cache nor the download has it.
 */
export async function realTaskSet(name: RealTaskSet): Promise<SourceFile> {
  return await obtainReal(name, mirror());
}

async function obtainReal(name: RealTaskSet, folder: string | undefined): Promise<SourceFile> {
  const spec = (await loadManifest())[name];
  try {
    return await obtainSource(spec, { mirror: folder, cache: SHELL_SOURCE_CACHE });
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    // obtainSource's line names EXECRET_MIRROR when the mirror or the
    // download fails; say what else was tried, and name it for a download
    // that arrived but did not verify too.
    const tried = folder ? "" : `EXECRET_MIRROR is unset, the source cache ` +
      `${SHELL_SOURCE_CACHE} has no verified copy (make reproduce fills it), and `;
    const hint = e.message.includes("EXECRET_MIRROR")
      ? ""
      : `; set EXECRET_MIRROR to a folder holding ${spec.file}`;
    throw new SourceError(`${spec.file} for a real-data test: ${tried}${e.message}${hint}`);
  }
}

/**
 * A folder holding both verified files, `mbpp.jsonl` and `HumanEval.jsonl.gz`:
 * the mirror when `EXECRET_MIRROR` is set, else the source cache (downloading
 * what it lacks). Tests hand it to `buildTasks` as its mirror, which pins
 * where the tasks stage reads them whatever `EXECRET_CACHE` says by then.
 */
export async function realTaskSetsFolder(): Promise<string> {
  const folder = mirror();
  for (const name of ["mbpp", "humaneval"] as const) await obtainReal(name, folder);
  return folder ?? SHELL_SOURCE_CACHE;
}
