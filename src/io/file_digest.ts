import { join, relative } from "node:path";
import { sha256Hex } from "./hash.ts";

/** SHA-256 of a file's bytes, or null when it does not exist. */
export async function fileDigest(path: string): Promise<string | null> {
  try {
    return sha256Hex(await Deno.readFile(path));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/** Digests already taken in this process, by path, with the stat they were taken at. */
const taken = new Map<string, { stat: string; digest: string }>();

/**
 * A file changed this recently is hashed again on every call: an edit within
 * the clock's resolution of the last one can leave the stat as it was.
 */
const SETTLED_MS = 2000;

/**
 * {@link fileDigest}, taken once per process while the file's stat (device,
 * inode, size, modification and change times) stays the same. Checking a
 * stage's inputs and outputs hashes the same large files again and again
 * (every site loader asks for its table's stage, and that stage's upstream
 * ones, in one process); on a release run that was over a gigabyte per ask.
 */
export async function settledFileDigest(path: string): Promise<string | null> {
  const info = await statOrNull(path);
  if (info === null) return null;
  // The change time, not the modification time: no one can set it back.
  const changed = info.ctime?.getTime() ?? info.mtime?.getTime();
  const stat = [info.dev, info.ino, info.size, info.mtime?.getTime(), changed].join(":");
  const seen = taken.get(path);
  if (seen?.stat === stat) return seen.digest;
  const settled = changed !== undefined && Date.now() - changed > SETTLED_MS;
  const digest = await fileDigest(path);
  if (digest === null) return null;
  if (settled) taken.set(path, { stat, digest });
  else taken.delete(path);
  return digest;
}

/**
 * Digest of a folder tree: every file's relative path and content digest, in
 * sorted order. Files for which `skip` is true are left out.
 */
export async function dirDigest(
  dir: string,
  skip: (name: string) => boolean = () => false,
): Promise<string> {
  const parts: string[] = [];
  const walk = async (d: string) => {
    const entries = [];
    for await (const e of Deno.readDir(d)) entries.push(e);
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else if (!skip(e.name)) parts.push(`${relative(dir, p)}:${await settledFileDigest(p)}`);
    }
  };
  try {
    await walk(dir);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return sha256Hex(parts.join("\n"));
}

/**
 * Digest of whatever is at `path`: a file's bytes, a folder's tree
 * ({@link dirDigest}), or null when nothing is there. A stage whose input
 * may be either (a task file, a release folder) is stamped with this.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { pathDigest } from "./file_digest.ts";
 * strictEqual(await pathDigest("no/such/file"), null);
 * strictEqual((await pathDigest("deno.json"))?.length, 64);
 * ```
 */
export async function pathDigest(path: string): Promise<string | null> {
  const info = await statOrNull(path);
  if (info === null) return null;
  return info.isDirectory ? `dir:${await dirDigest(path)}` : await settledFileDigest(path);
}

/** The file's stat, or null when nothing is at `path`. */
async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}
