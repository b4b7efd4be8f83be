/**
 * One site build of a Framework root at a time. Builds of one root share its
 * cache (`<root>/.observablehq/cache`): each clears the loader outputs there
 * and writes its own run's, so two at once (two runs with their own
 * EXECRET_OUT, or two test processes) would show each other's tables or fail.
 *
 * @module
 */
import { join } from "node:path";

/**
 * Run `work` holding `<root>/.observablehq/build.lock`, waiting for a build
 * that holds it; `onWait` is called once when the lock is not free within a
 * second. The lock is the kernel's (flock): a holder that is killed releases it.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { withBuildLock } from "./build_lock.ts";
 * const root = await Deno.makeTempDir();
 * strictEqual(await withBuildLock(root, () => Promise.resolve(42)), 42);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function withBuildLock<T>(
  root: string,
  work: () => Promise<T>,
  onWait: () => void = () => {},
): Promise<T> {
  const dir = join(root, ".observablehq");
  await Deno.mkdir(dir, { recursive: true });
  const file = await Deno.open(join(dir, "build.lock"), { create: true, write: true });
  try {
    let locked = false;
    const lock = file.lock(true).then(() => locked = true);
    const waitNotice = setTimeout(() => locked || onWait(), 1000);
    try {
      await lock;
    } finally {
      clearTimeout(waitNotice);
    }
    return await work();
  } finally {
    file.close(); // releases the lock
  }
}
