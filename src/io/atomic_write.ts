import { dirname, join } from "node:path";
import { UserError } from "./user_error.ts";

/** The name pattern of {@link atomicWrite}'s temp files: `<target>.<pid>.<8 hex>.tmp`. */
export const TEMP_FILE = /\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Write a file so that readers (and a later run after a kill) see either the
 * old content or the new, never a torn file: write a sibling temp file, fsync
 * it, then rename over the target (rename is atomic within one filesystem).
 * A write that fails (a full disk, a folder that cannot be made) removes its
 * temp file, leaves the target as it was, and is a one-line {@link UserError}
 * naming the target.
 */
export async function atomicWrite(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    try {
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw new UserError(`${path}: cannot write (${(e as Error).message.split("\n")[0]})`);
  }
}

/**
 * Remove the temp files that writes interrupted by a kill left under `dir`
 * (recursively); returns how many. Only for a folder no other process is
 * writing to: its temp files would be in use.
 */
export async function removeTempFiles(dir: string): Promise<number> {
  let removed = 0;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return 0;
    throw e;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) removed += await removeTempFiles(path);
    else if (e.isFile && TEMP_FILE.test(e.name)) {
      await Deno.remove(path);
      removed++;
    }
  }
  return removed;
}
