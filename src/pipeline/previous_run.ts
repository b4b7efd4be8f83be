import { join } from "node:path";
import { outDir } from "../io/paths.ts";
import { OUTPUT_DIRS } from "./manifest.ts";
import { whenAlone } from "./run_lock.ts";

/**
 * A run that fails must leave the folder as the last complete run left it,
 * not half replaced: `tasks` new, `metrics` old, a manifest describing
 * neither. Before its stages run, `reproduce` keeps the last complete run
 * (the one `manifest.json` describes) in `out/.previous/` as hard links:
 * every output replaces its file by rename (`atomicWrite`), so a link keeps
 * the old bytes at no cost in time or space. A run that fails puts them
 * back; a run that completes drops them. A run that is killed leaves them,
 * and the next run keeps that copy (the folder then holds a half-finished
 * run, which the next run resumes from its stamps), so whatever happens the
 * copy is of a complete run.
 */

/** The files that make up a run besides its outputs: its manifest, settings and stamps. */
const RUN_FILES = ["manifest.json", "run.json"];

const previousDir = () => join(outDir(), ".previous");

/**
 * Keep the last complete run in `out/.previous/` (see the module note), unless
 * an earlier, killed run already kept one. Does nothing when the folder holds
 * no complete run. Returns whether a previous run is kept.
 */
export async function keepPreviousRun(): Promise<boolean> {
  if (await exists(previousDir())) return true;
  const manifestPath = join(outDir(), "manifest.json");
  if (!(await exists(manifestPath))) return false;
  const manifest = JSON.parse(await Deno.readTextFile(manifestPath)) as {
    files: { path: string }[];
  };
  // Built beside, then renamed into place: a kill midway leaves no partial copy.
  const building = `${previousDir()}.building`;
  await Deno.remove(building, { recursive: true }).catch(() => {});
  const paths = [
    ...RUN_FILES,
    ...manifest.files.map((f) => f.path),
    ...listNames(join(outDir(), "stamps")).map((n) => `stamps/${n}`),
  ];
  for (const rel of paths) {
    const from = join(outDir(), rel);
    if (!(await exists(from))) continue;
    await Deno.mkdir(join(building, rel, ".."), { recursive: true });
    await Deno.link(from, join(building, rel));
  }
  await Deno.rename(building, previousDir());
  return true;
}

/**
 * Put the kept run back, if one was kept and no other run is using the
 * folder: outputs and stamps written since are removed and the kept files
 * take their places. Returns whether it did.
 */
export async function restorePreviousRun(): Promise<boolean> {
  const kept = previousDir();
  if (!(await exists(kept))) return false;
  const done = await whenAlone(async () => {
    for (const dir of [...OUTPUT_DIRS, "stamps"]) {
      for (const name of listNames(join(outDir(), dir))) {
        await Deno.remove(join(outDir(), dir, name));
      }
    }
    for (const rel of RUN_FILES) await Deno.remove(join(outDir(), rel)).catch(() => {});
    for (const rel of walk(kept)) {
      await Deno.mkdir(join(outDir(), rel, ".."), { recursive: true });
      await Deno.rename(join(kept, rel), join(outDir(), rel));
    }
    await Deno.remove(kept, { recursive: true });
    return true;
  });
  return done ?? false;
}

/** Forget the kept run: the run that kept it completed. */
export async function dropPreviousRun(): Promise<void> {
  await Deno.remove(previousDir(), { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Names of the files directly in `dir` (none when it does not exist). */
function listNames(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name).sort();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

/** Every file under `dir`, as paths relative to it. */
function walk(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...walk(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}
