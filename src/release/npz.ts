/**
 * Reading numpy `.npz` archives (what `np.savez` / `np.savez_compressed`
 * write) without numpy: a ZIP reader (stored and deflate entries, zip64,
 * CRC-32 checked) and an NPY parser (format versions 1, 2 and 3). Pickled
 * object arrays are refused, never unpickled.
 *
 * @module
 */
import { crc32, entryBytes, zipEntries } from "./zip_entries.ts";
import { type NdArray, parseNpy } from "./npy.ts";

/**
 * Read every array of an `.npz` file's bytes, keyed by array name (the entry
 * name without `.npy`). Errors are one line starting with `file`.
 *
 * For a release embedding file, `arrays.get("query_embeddings")?.shape` is e.g.
 * `[939, 1024]`.
 */
export function readNpz(bytes: Uint8Array, file: string): Promise<Map<string, NdArray>> {
  // Async for callers that stream; the work itself is native inflate and CRC.
  try {
    return Promise.resolve(readNpzSync(bytes, file));
  } catch (e) {
    return Promise.reject(e);
  }
}

function readNpzSync(bytes: Uint8Array, file: string): Map<string, NdArray> {
  const out = new Map<string, NdArray>();
  for (const entry of zipEntries(bytes, file)) {
    const where = `${file}: entry ${entry.name}`;
    if (!entry.name.endsWith(".npy")) continue; // np.load ignores other members too
    const raw = entryBytes(bytes, entry, where);
    if (crc32(raw) !== entry.crc) throw new Error(`${where}: CRC-32 mismatch (corrupted archive)`);
    const name = entry.name.slice(0, -".npy".length);
    if (out.has(name)) throw new Error(`${where}: array ${name} appears twice`);
    out.set(name, parseNpy(raw, name, `${file}: array ${name}`));
  }
  return out;
}

/**
 * When the archive was written: the newest entry time of its central
 * directory (ZIP keeps the writer's local time, no zone), as
 * `YYYY-MM-DDTHH:MM:SS`. A property of the bytes, so the same file always
 * gives the same value.
 */
export function npzWrittenAt(bytes: Uint8Array, file: string): string {
  let newest = 0;
  for (const e of zipEntries(bytes, file)) newest = Math.max(newest, e.dosDate * 65536 + e.dosTime);
  const date = Math.floor(newest / 65536), time = newest % 65536;
  const pad = (n: number) => String(n).padStart(2, "0");
  const year = 1980 + (date >> 9),
    month = Math.max(1, (date >> 5) & 15),
    day = Math.max(1, date & 31);
  return `${year}-${pad(month)}-${pad(day)}T${pad(time >> 11)}:${pad((time >> 5) & 63)}:${
    pad((time & 31) * 2)
  }`;
}
