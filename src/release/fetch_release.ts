import { dirname, join } from "node:path";
import { UserError } from "../io/user_error.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { sha256Hex } from "../io/hash.ts";
import { cacheDir } from "../io/paths.ts";
import { fetchProgress } from "./fetch_progress.ts";
import { downloadVerified, fetchBytes, hashFile, type RetryOptions } from "./download_file.ts";
import { parseSha256Sums, type Sha256Entry } from "./sha256sums.ts";

/** The paper's release: a Hugging Face dataset repository. */
export const DEFAULT_RELEASE_REPO = "anonpapersubmission01/execretrieval";
/** The revision of the release the kit's audit is written against. */
export const DEFAULT_RELEASE_REVISION = "ace5c3f";

/** Name of the digest list at the bundle's top level. */
const SUMS = "SHA256SUMS";
/** Written last, holding the SHA-256 of SHA256SUMS, once every file is verified. */
const MARKER = ".complete";

/** Which release to fetch. */
export interface ReleaseSpec {
  /** `owner/name` of the dataset repository. */
  repo: string;
  /** Commit, tag or branch. */
  revision: string;
}

/**
 * Parse `[REPO][@REVISION]`. Both parts default to the paper's release
 * ({@link DEFAULT_RELEASE_REPO} at {@link DEFAULT_RELEASE_REVISION}); another
 * repository without a revision means its `main` branch, since the paper's
 * commit means nothing there. Throws a one-line {@link UserError} for a
 * malformed spec.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(parseReleaseSpec(), {
 *   repo: "anonpapersubmission01/execretrieval",
 *   revision: "ace5c3f",
 * });
 * deepStrictEqual(parseReleaseSpec("@main"), {
 *   repo: "anonpapersubmission01/execretrieval",
 *   revision: "main",
 * });
 * ```
 */
export function parseReleaseSpec(spec?: string): ReleaseSpec {
  const text = (spec ?? "").trim();
  const at = text.indexOf("@");
  const repo = (at < 0 ? text : text.slice(0, at)) || DEFAULT_RELEASE_REPO;
  const given = at < 0 ? "" : text.slice(at + 1);
  if (at >= 0 && given === "") {
    throw new UserError(`release "${text}": empty revision after "@"`, 2);
  }
  const revision = given || (repo === DEFAULT_RELEASE_REPO ? DEFAULT_RELEASE_REVISION : "main");
  if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo) || repo.includes("..")) {
    throw new UserError(`release "${text}": repository must be OWNER/NAME, got "${repo}"`, 2);
  }
  if (!/^[\w.\-/]+$/.test(revision) || revision.split("/").some((s) => s === "" || s === "..")) {
    throw new UserError(`release "${text}": bad revision "${revision}"`, 2);
  }
  return { repo, revision };
}

/**
 * Local folder of a fetched release: `<cacheDir()>/releases/<owner>__<name>@<revision>`
 * (a `/` in the revision also becomes `__`, so every release is one folder).
 */
export function releaseCacheDir(repo: string, revision: string): string {
  const name = `${repo.replaceAll("/", "__")}@${revision.replaceAll("/", "__")}`;
  return join(cacheDir(), "releases", name);
}

/** Options of {@link fetchRelease}. */
export interface FetchReleaseOptions extends RetryOptions {
  /** No progress on stderr. */
  quiet?: boolean;
}

/** What {@link fetchReleaseBundle} did. */
export interface FetchReleaseResult {
  /** Folder holding the complete, verified bundle. */
  dir: string;
  /** Files SHA256SUMS lists (SHA256SUMS itself not counted). */
  files: number;
  /** Their total size. */
  bytes: number;
  /** Bytes downloaded by this call. */
  downloaded: number;
  /** mirror: EXECRET_RELEASE_MIRROR; cache: a finished earlier download; download: fetched now. */
  via: "mirror" | "cache" | "download";
}

/**
 * Fetch the release bundle named by `spec` (`[REPO][@REVISION]`) and resolve
 * to the local folder holding it, complete and verified against its
 * SHA256SUMS. See {@link fetchReleaseBundle}.
 */
export async function fetchRelease(
  spec?: string,
  options: FetchReleaseOptions = {},
): Promise<string> {
  return (await fetchReleaseBundle(spec, options)).dir;
}

/**
 * Fetch and verify a release bundle.
 *
 * With `EXECRET_RELEASE_MIRROR=DIR`, DIR is the bundle: every file its
 * SHA256SUMS lists is checked and DIR itself is returned (no copy). Otherwise
 * SHA256SUMS and then each file it lists are downloaded from
 * `$HF_ENDPOINT/datasets/<repo>/resolve/<revision>/<path>` (default endpoint
 * https://huggingface.co, `Authorization: Bearer $HF_TOKEN` when set) into
 * {@link releaseCacheDir}, each resumable and verified before it takes its
 * final name (see downloadVerified). Files already there with the right digest
 * are kept, so a rerun after a kill redoes nothing finished; once all are
 * verified a marker is written and later calls return at once, offline.
 * Concurrent calls for one release wait for each other (a file lock).
 * Failures throw one-line {@link UserError}s naming the file.
 */
export async function fetchReleaseBundle(
  spec?: string,
  options: FetchReleaseOptions = {},
): Promise<FetchReleaseResult> {
  const { repo, revision } = parseReleaseSpec(spec);
  const mirror = Deno.env.get("EXECRET_RELEASE_MIRROR");
  if (mirror) return await verifyMirror(mirror, options.quiet ?? false);

  const dir = releaseCacheDir(repo, revision);
  const cached = await completeBundle(dir);
  if (cached) return cached;
  await Deno.mkdir(dir, { recursive: true });
  const lock = await Deno.open(join(dir, ".lock"), { write: true, create: true });
  try {
    await lock.lock(true);
    // Another process may have finished it while this one waited.
    return await completeBundle(dir) ?? await download(repo, revision, dir, options);
  } finally {
    await lock.unlock().catch(() => {});
    lock.close();
  }
}

/** The finished download in `dir` if its marker matches SHA256SUMS and every file is there. */
async function completeBundle(dir: string): Promise<FetchReleaseResult | undefined> {
  let sums: Uint8Array;
  let marker: string;
  try {
    marker = (await Deno.readTextFile(join(dir, MARKER))).trim();
    sums = await Deno.readFile(join(dir, SUMS));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  if (marker !== sha256Hex(sums)) return undefined;
  const entries = parseSha256Sums(new TextDecoder().decode(sums), join(dir, SUMS));
  let bytes = 0;
  for (const entry of entries) {
    // Only a cheap presence check: every file was verified before the marker.
    const size = await fileSize(join(dir, entry.path));
    if (size === undefined) return undefined;
    bytes += size;
  }
  return { dir, files: entries.length, bytes, downloaded: 0, via: "cache" };
}

async function download(
  repo: string,
  revision: string,
  dir: string,
  options: FetchReleaseOptions,
): Promise<FetchReleaseResult> {
  await Deno.remove(join(dir, MARKER)).catch(() => {});
  const endpoint = (Deno.env.get("HF_ENDPOINT") || "https://huggingface.co").replace(/\/+$/, "");
  const base = `${endpoint}/datasets/${repo.split("/").map(encodeURIComponent).join("/")}` +
    `/resolve/${encodeURIComponent(revision)}/`;
  const urlOf = (path: string) => base + path.split("/").map(encodeURIComponent).join("/");
  const token = Deno.env.get("HF_TOKEN");
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};

  const label = `${repo}@${revision}/${SUMS}`;
  const sums = await fetchBytes(label, urlOf(SUMS), headers, options);
  const entries = parseSha256Sums(new TextDecoder().decode(sums), label);
  await atomicWrite(join(dir, SUMS), sums);

  const progress = fetchProgress("fetch-release", entries.length, options.quiet ?? false);
  let bytes = 0;
  let downloaded = 0;
  for (const entry of entries) {
    const dest = join(dir, entry.path);
    const present = await fileSize(dest);
    if (present !== undefined && await hashFile(dest) === entry.sha256) {
      bytes += present;
      progress.fileDone();
      continue;
    }
    await Deno.mkdir(dirname(dest), { recursive: true });
    const size = await downloadVerified(
      entry.path,
      urlOf(entry.path),
      dest,
      entry.sha256,
      headers,
      options,
      {
        start: (offset, total) => progress.file(entry.path, offset, total),
        bytes: (n) => {
          downloaded += n;
          progress.bytes(n);
        },
      },
    );
    bytes += size;
    progress.fileDone();
  }
  await atomicWrite(join(dir, MARKER), `${sha256Hex(sums)}\n`);
  progress.done(`${entries.length} files verified in ${dir}`);
  return { dir, files: entries.length, bytes, downloaded, via: "download" };
}

/** Check every file a mirror's SHA256SUMS lists; the mirror is the bundle. */
async function verifyMirror(dir: string, quiet: boolean): Promise<FetchReleaseResult> {
  const sumsPath = join(dir, SUMS);
  let text: string;
  try {
    text = await Deno.readTextFile(sumsPath);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new UserError(`${sumsPath}: missing (EXECRET_RELEASE_MIRROR=${dir})`);
    }
    throw e;
  }
  const entries = parseSha256Sums(text, sumsPath);
  const progress = fetchProgress("verify-release", entries.length, quiet);
  let bytes = 0;
  for (const entry of entries) {
    bytes += await verifyFile(dir, entry, sumsPath);
    progress.fileDone();
  }
  progress.done(`${entries.length} files verified in ${dir}`);
  return { dir, files: entries.length, bytes, downloaded: 0, via: "mirror" };
}

async function verifyFile(dir: string, entry: Sha256Entry, sumsPath: string): Promise<number> {
  const path = join(dir, entry.path);
  const size = await fileSize(path);
  if (size === undefined) {
    throw new UserError(`${path}: missing (listed at ${sumsPath}:${entry.line})`);
  }
  const actual = await hashFile(path);
  if (actual !== entry.sha256) {
    throw new UserError(
      `${path}: SHA-256 mismatch: expected ${entry.sha256} (${sumsPath}:${entry.line}), got ${actual}`,
    );
  }
  return size;
}

/** Size of a regular file, or undefined when there is none. */
async function fileSize(path: string): Promise<number | undefined> {
  try {
    const info = await Deno.stat(path);
    return info.isFile ? info.size : undefined;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}
