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
      else if (!skip(e.name)) parts.push(`${relative(dir, p)}:${await fileDigest(p)}`);
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
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  return info.isDirectory ? `dir:${await dirDigest(path)}` : await fileDigest(path);
}
