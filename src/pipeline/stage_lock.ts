import { join } from "node:path";
import { outDir } from "../io/paths.ts";

/**
 * An exclusive lock per stage, so concurrent data loaders (Framework runs
 * several at once) or two terminals never compute the same stage twice or
 * interleave writes. It is an advisory lock on `out/locks/<stage>.lock`
 * (`Deno.FsFile.lock`, flock on Unix, LockFileEx on Windows): the operating
 * system releases it when its holder exits or is killed, so there is no stale
 * lock to detect, and the file itself is left in place (removing it while
 * another process waits on it would let a third lock a new file beside it).
 */
export async function withStageLock<T>(stage: string, body: () => Promise<T>): Promise<T> {
  const dir = join(outDir(), "locks");
  await Deno.mkdir(dir, { recursive: true });
  const file = await Deno.open(join(dir, `${stage}.lock`), { write: true, create: true });
  try {
    const locked = file.lock(true);
    const waiting = setTimeout(
      () => console.error(`waiting for another process to finish stage ${stage}…`),
      250,
    );
    try {
      await locked;
    } finally {
      clearTimeout(waiting);
    }
    try {
      return await body();
    } finally {
      await file.unlock();
    }
  } finally {
    file.close();
  }
}
