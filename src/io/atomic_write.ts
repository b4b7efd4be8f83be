import { dirname } from "node:path";

/**
 * Write a file so that readers (and a later run after a kill) see either the
 * old content or the new, never a torn file: write a sibling temp file, fsync
 * it, then rename over the target (rename is atomic within one filesystem).
 */
export async function atomicWrite(path: string, data: Uint8Array | string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
  try {
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } finally {
    file.close();
  }
  await Deno.rename(tmp, path);
}

/** Synchronous twin of {@link atomicWrite}, for exit paths that cannot await. */
export function atomicWriteSync(path: string, data: Uint8Array | string): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
  try {
    let written = 0;
    while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    file.syncSync();
  } finally {
    file.close();
  }
  Deno.renameSync(tmp, path);
}
