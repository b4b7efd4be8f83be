import { RELEASED_PREFIX } from "../tables/board.ts";
import { UserError } from "../io/user_error.ts";
import type { Similarity } from "../common/similarity.ts";
import { fetchRelease } from "./fetch_release.ts";
import type { Bundle } from "./bundle_types.ts";

/** A profile's view of where its tasks come from (the fields this module reads). */
export interface ReleaseProfileFields {
  sources: readonly string[];
  /** `[REPO][@REVISION]` of the release a bare `release` source means. */
  release?: string;
  configs: readonly string[];
}

/** The profile config that stands for every dense system of the release. */
export const ALL_RELEASED = "release:*";

/**
 * The release source of a profile, if any: `release` (the profile's
 * `release` spec, fetched and verified, or `EXECRET_RELEASE_MIRROR`) or
 * `release:DIR` (a bundle already on disk).
 */
export function releaseSource(
  profile: ReleaseProfileFields,
): { spec: string | undefined } | { dir: string } | null {
  for (const s of profile.sources) {
    if (s === "release") return { spec: profile.release };
    if (s.startsWith("release:")) return { dir: s.slice("release:".length) };
  }
  return null;
}

/**
 * Whether the benchmark's pool is the release's own (its canonicals and
 * released distractors) rather than the kit's mutants: so it is when every
 * source of the profile is a release, since mutants of the released
 * canonicals would be another benchmark.
 */
export function isReleasePool(profile: ReleaseProfileFields): boolean {
  return profile.sources.length > 0 &&
    profile.sources.every((s) => s === "release" || s.startsWith("release:"));
}

/** The folder of the profile's release bundle (fetched when needed), or null without one. */
export async function releaseBundleDir(profile: ReleaseProfileFields): Promise<string | null> {
  const source = releaseSource(profile);
  if (source === null) return null;
  if ("dir" in source) return source.dir;
  return await fetchRelease(source.spec, { quiet: true });
}

/** A dense system of the release whose matrices the kit scores. */
export interface ReleasedSystem {
  /** The released model id, e.g. `google/gemini-embedding-2`. */
  model: string;
  /** Its config name in the kit's tables, e.g. `paper-gemini-embedding-2`. */
  config: string;
  /** Its `embeddings/*.npz`. */
  npz: string;
  similarity: Similarity;
}

/**
 * Config names of released models: `paper-` and the id after its provider
 * prefix (`google/gemini-embedding-2` → `paper-gemini-embedding-2`), lower
 * case with anything outside `[a-z0-9._-]` as `-`; when two models would
 * share a name, both keep their whole id with `/` as `__`. The prefix keeps
 * them apart from the kit's own configs of the same model (a hosted
 * `gemini-embedding-2` re-embeds the texts; `paper-gemini-embedding-2` is the
 * paper's saved vectors).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   releasedConfigNames(["google/gemini-embedding-2", "BM25"]),
 *   new Map([["google/gemini-embedding-2", "paper-gemini-embedding-2"], ["BM25", "paper-bm25"]]),
 * );
 * ```
 */
export function releasedConfigNames(models: readonly string[]): Map<string, string> {
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]/g, "-");
  const tail = (m: string) => clean(m.slice(m.lastIndexOf("/") + 1));
  const counts = new Map<string, number>();
  for (const m of models) counts.set(tail(m), (counts.get(tail(m)) ?? 0) + 1);
  return new Map(
    models.map((m) => [
      m,
      RELEASED_PREFIX + (counts.get(tail(m)) === 1 ? tail(m) : clean(m.replaceAll("/", "__"))),
    ]),
  );
}

/**
 * The release's dense systems with saved matrices, in config order, with
 * the similarity its invocation table gives (cosine for 22 systems, raw dot
 * for multi-qa-mpnet-base-dot-v1). A system whose similarity is missing or
 * unknown is an error naming the invocation table.
 */
export function releasedSystems(bundle: Bundle): ReleasedSystem[] {
  const names = releasedConfigNames(bundle.runs.map((r) => r.model));
  const invocation = new Map(bundle.invocations.map((row) => [String(row.model), row]));
  const out: ReleasedSystem[] = [];
  for (const [model, npz] of bundle.embeddings) {
    const raw = String(invocation.get(model)?.similarity ?? "").toLowerCase();
    const similarity = raw === "cosine"
      ? "cosine"
      : ["dot", "dot_product", "dot-product", "inner_product", "ip"].includes(raw)
      ? "dot"
      : null;
    if (similarity === null) {
      throw new UserError(
        `${bundle.files.invocations}: model ${model}: similarity must be cosine or dot, got ${
          JSON.stringify(invocation.get(model)?.similarity ?? null)
        }`,
      );
    }
    out.push({ model, config: names.get(model)!, npz, similarity });
  }
  return out.sort((a, b) => a.config < b.config ? -1 : a.config > b.config ? 1 : 0);
}

/**
 * A profile's configs with `release:*` replaced by the release's dense
 * systems (no release: the configs as written).
 */
export function expandConfigs(
  configs: readonly string[],
  systems: readonly ReleasedSystem[] | null,
): string[] {
  const out: string[] = [];
  for (const c of configs) {
    if (c !== ALL_RELEASED) out.push(c);
    else if (systems === null) {
      throw new UserError(`config ${ALL_RELEASED} needs a release source (release or release:DIR)`);
    } else out.push(...systems.map((s) => s.config));
  }
  return [...new Set(out)];
}
