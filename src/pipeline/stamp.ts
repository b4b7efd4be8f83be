import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileDigest, settledFileDigest } from "../io/file_digest.ts";
import { canonicalJson, sha256Hex } from "../io/hash.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { outDir, parquetDir, tablesDir } from "../io/paths.ts";
import { codeFingerprint, REPO_ROOT } from "./code_fingerprint.ts";

/**
 * What a stage's outputs are a function of: its settings, the bytes of its
 * input files, and the code that computes it. Two runs with the same
 * fingerprint must give the same outputs, so the second can skip the stage.
 */
export interface StageInputs {
  settings: unknown;
  /** Files whose content the stage reads (missing files count as absent). */
  files: string[];
  /**
   * The stage's entry module (relative to the repository root): the code is
   * every module in its import graph, as `deno info` lists it.
   */
  entry: string;
  /**
   * What the code loads at run time outside its import graph: worker
   * modules (`.ts`, their graphs are followed), other repository files
   * (driver.py), and `npm:<name>` for packages whose files are read rather
   * than imported (taken by the version deno.json pins).
   */
  assets?: string[];
}

/** A stage's record of its last completed run. */
export interface Stamp {
  stage: string;
  key: string;
  /** Output path (relative to out/) → sha256 of its bytes. */
  outputs: Record<string, string>;
}

/**
 * The fingerprint of a stage's inputs (see {@link StageInputs}); `root` is
 * the repository whose code the entry and assets name.
 */
export async function fingerprint(
  inputs: StageInputs,
  root: string = REPO_ROOT,
): Promise<string> {
  const files: Record<string, string | null> = {};
  for (const f of inputs.files) {
    // A file of the repository is named as in it, wherever the repository
    // and the working folder are, so a stamp means the same from any folder
    // `execret` runs in; others as given (out/ is relative to that folder).
    const path = resolve(f);
    const inRepo = relative(root, path);
    files[inRepo.startsWith("..") || isAbsolute(inRepo) ? f : inRepo] = await settledFileDigest(
      path,
    );
  }
  const code = await codeFingerprint(inputs.entry, inputs.assets ?? [], root);
  return sha256Hex(canonicalJson({ settings: inputs.settings ?? null, files, code }));
}

function stampPath(stage: string): string {
  return join(outDir(), "stamps", `${stage}.json`);
}

/** A stage's stamp, or null when it has none (never completed, or unreadable). */
export async function readStamp(stage: string): Promise<Stamp | null> {
  try {
    return JSON.parse(await Deno.readTextFile(stampPath(stage)));
  } catch {
    return null;
  }
}

/**
 * True when the stage last completed with this fingerprint and every output
 * it wrote is still there, byte for byte.
 */
export async function isFresh(stage: string, key: string): Promise<boolean> {
  const stamp = await readStamp(stage);
  if (stamp === null || stamp.key !== key) return false;
  for (const [rel, digest] of Object.entries(stamp.outputs)) {
    if (await settledFileDigest(resolve(outDir(), rel)) !== digest) return false;
  }
  return true;
}

/**
 * A stage's declared outputs plus the Parquet copy of each of its tables
 * that it wrote (`writeTable` removes a copy it does not write), so a stamp
 * covers every file the stage's tables are read from: `execret sql` reads
 * the copies, and a copy changed behind the stage's back must rerun it.
 */
export async function withParquetCopies(outputs: readonly string[]): Promise<string[]> {
  const all = [...outputs];
  for (const path of outputs) {
    if (dirname(path) !== tablesDir() || !path.endsWith(".arrow")) continue;
    const copy = join(parquetDir(), `${basename(path, ".arrow")}.parquet`);
    if (await fileDigest(copy) !== null) all.push(copy);
  }
  return all;
}

/** Record a completed stage with its fingerprint and its outputs' digests. */
export async function writeStamp(stage: string, key: string, outputs: string[]): Promise<void> {
  const digests: Record<string, string> = {};
  for (const path of [...outputs].sort()) {
    const d = await fileDigest(path);
    if (d === null) throw new Error(`stage ${stage} did not write ${path}`);
    digests[relative(outDir(), path)] = d;
  }
  const stamp: Stamp = { stage, key, outputs: digests };
  await atomicWrite(stampPath(stage), JSON.stringify(stamp, null, 2) + "\n");
}
