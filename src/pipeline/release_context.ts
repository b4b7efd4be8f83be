import { join } from "node:path";
import {
  expandConfigs,
  isReleasePool,
  releaseBundleDir,
  type ReleasedSystem,
  releasedSystems,
} from "../release/bundle_source.ts";
import { readBundle } from "../release/read_bundle.ts";
import type { Profile } from "./profile.ts";

// A profile's bundle is located (and fetched) once per process: every stage's
// fingerprint asks for it.
const dirs = new Map<string, Promise<string | null>>();
const systems = new Map<string, Promise<ReleasedSystem[]>>();

const keyOf = (p: Profile) => JSON.stringify([p.sources, p.release ?? null]);

/** The folder of the profile's release bundle, or null when it reads no release. */
export function bundleDirOf(p: Profile): Promise<string | null> {
  let d = dirs.get(keyOf(p));
  if (!d) dirs.set(keyOf(p), d = releaseBundleDir(p));
  return d;
}

/** The released dense systems the profile scores (none without a release). */
export async function releasedSystemsOf(p: Profile): Promise<ReleasedSystem[]> {
  const dir = await bundleDirOf(p);
  if (dir === null || !p.configs.includes("release:*")) return [];
  let s = systems.get(dir);
  if (!s) systems.set(dir, s = readBundle(dir).then(releasedSystems));
  return await s;
}

/** The profile's configs with `release:*` expanded. */
export async function configsOf(p: Profile): Promise<string[]> {
  const hasAll = p.configs.includes("release:*");
  return expandConfigs(p.configs, hasAll ? await releasedSystemsOf(p) : null);
}

/** The profile's sources with a bare `release` resolved to `release:<bundle folder>`. */
export async function sourcesOf(p: Profile): Promise<string[]> {
  const out: string[] = [];
  for (const s of p.sources) out.push(s === "release" ? `release:${await bundleDirOf(p)}` : s);
  return out;
}

/** Whether the profile's pool is the release's own (see isReleasePool). */
export function releasePool(p: Profile): boolean {
  return isReleasePool(p);
}

/**
 * Files that stand for the bundle's content in stage fingerprints: its
 * `SHA256SUMS` (a digest of every other file, verified when fetched), else
 * every file it holds.
 */
export async function bundleFingerprintFiles(p: Profile): Promise<string[]> {
  const dir = await bundleDirOf(p);
  if (dir === null) return [];
  const sums = join(dir, "SHA256SUMS");
  try {
    await Deno.stat(sums);
    return [sums];
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name));
      else if (e.isFile) out.push(join(d, e.name));
    }
  };
  await walk(dir);
  return out.sort();
}
