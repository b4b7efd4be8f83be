import { join } from "node:path";
import { outDir } from "../io/paths.ts";

/**
 * An exclusive lock per stage, so concurrent data loaders (Framework runs
 * several at once) or two terminals never compute the same stage twice or
 * interleave writes. The lock is a file created with `createNew`; a lock
 * left by a killed process is taken over once its pid is gone.
 */
export async function withStageLock<T>(stage: string, body: () => Promise<T>): Promise<T> {
  const dir = join(outDir(), "locks");
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, `${stage}.lock`);
  let waited = 0;
  for (;;) {
    try {
      const file = await Deno.open(path, { write: true, createNew: true });
      await file.write(new TextEncoder().encode(String(Deno.pid)));
      file.close();
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      if (await holderIsGone(path)) {
        await Deno.remove(path).catch(() => {});
        continue;
      }
      if (waited === 0) console.error(`waiting for another process to finish stage ${stage}…`);
      await new Promise((r) => setTimeout(r, 250));
      waited += 250;
    }
  }
  try {
    return await body();
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

async function holderIsGone(path: string): Promise<boolean> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return false;
  }
  const pid = Number(text.trim());
  // An empty file is a lock being written right now, not a stale one.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === Deno.pid) return false;
  try {
    await Deno.stat(`/proc/${pid}`);
    return false;
  } catch {
    return true;
  }
}
