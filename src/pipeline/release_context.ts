import { join } from "node:path";
import {
  ALL_RELEASED,
  expandConfigs,
  releaseBundleDir,
  type ReleasedSystem,
  releasedSystems,
  releaseSource,
} from "../release/bundle_source.ts";
import { readBundle } from "../release/read_bundle.ts";
import { parseSha256Sums } from "../release/sha256sums.ts";
import { fileDigest } from "../io/file_digest.ts";
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
  if (dir === null || !p.configs.includes(ALL_RELEASED)) return [];
  let s = systems.get(dir);
  if (!s) systems.set(dir, s = readBundle(dir).then(releasedSystems));
  return await s;
}

/** The profile's configs with `release:*` expanded. */
export async function configsOf(p: Profile): Promise<string[]> {
  const hasAll = p.configs.includes(ALL_RELEASED);
  return expandConfigs(p.configs, hasAll ? await releasedSystemsOf(p) : null);
}

/** The profile's sources with a bare `release` resolved to `release:<bundle folder>`. */
export async function sourcesOf(p: Profile): Promise<string[]> {
  const out: string[] = [];
  for (const s of p.sources) out.push(s === "release" ? `release:${await bundleDirOf(p)}` : s);
  return out;
}

/**
 * The digests of the bundle's files under some paths (`data/`,
 * `data/queries.jsonl`, ...), for a stage's fingerprint, so a stage reruns
 * only when a file it reads changed. A fetched or mirrored bundle was just
 * verified against its `SHA256SUMS`, so its listed digests are used as they
 * are; a `release:DIR` bundle is hashed file by file.
 */
export async function bundleDigests(
  p: Profile,
  prefixes: readonly string[],
): Promise<Record<string, string> | null> {
  const dir = await bundleDirOf(p);
  if (dir === null) return null;
  const wanted = (path: string) =>
    prefixes.some((x) => x.endsWith("/") ? path.startsWith(x) : path === x);
  const source = releaseSource(p);
  const verified = source !== null && !("dir" in source);
  const out: Record<string, string> = {};
  if (verified) {
    const sums = join(dir, "SHA256SUMS");
    for (const e of parseSha256Sums(await Deno.readTextFile(sums), sums)) {
      if (wanted(e.path)) out[e.path] = e.sha256;
    }
    return out;
  }
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(join(dir, rel))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(path);
      else if (e.isFile && wanted(path)) out[path] = (await fileDigest(join(dir, path)))!;
    }
  };
  await walk("");
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
