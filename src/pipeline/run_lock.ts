import { join, resolve } from "node:path";
import { canonicalDigest } from "../io/hash.ts";
import { outDir } from "../io/paths.ts";
import { UserError } from "../io/user_error.ts";
import type { Profile } from "./profile.ts";

/**
 * One output folder, one profile at a time. Stage locks (stage_lock.ts) keep
 * two processes from computing the same stage at once, but runs of two
 * profiles on one folder would still take turns per stage and leave each
 * other's tables behind: one run's `score` over the other's `corpus`. So a
 * process that runs stages first registers its profile under
 * `out/locks/runs/`: runs of the same profile share the folder (and wait for
 * each other per stage, as before), a run of another profile is refused
 * with one line naming the run in the way.
 *
 * Each registration is a file its run holds an exclusive advisory lock on
 * for as long as it lives, so the operating system drops a killed run's
 * claim with its process: a file whose lock can be taken is a dead run's,
 * and is removed. Registering and looking are done under `out/locks/run.gate`,
 * so two runs of different profiles cannot both see an empty folder.
 */

/** What a registration file says about its run. */
export interface RunClaim {
  profile: string;
  /** Digest of the run's whole effective profile (sources, configs, seeds...). */
  digest: string;
  pid: number;
  started: string;
}

interface Held {
  digest: string;
  depth: number;
  file: Deno.FsFile;
  path: string;
}

/** This process's registration per output folder (resolved path). */
const holding = new Map<string, Held>();

/** The digest two runs must share to use one folder: the profile's settings as data. */
export function profileDigest(profile: Profile): string {
  return canonicalDigest(JSON.parse(JSON.stringify(profile)));
}

const locksDir = () => join(outDir(), "locks");
const runsDir = () => join(locksDir(), "runs");

/**
 * Run `body` registered as a run of `profile` on the output folder (see the
 * module note). Nested calls in one process for the same profile share one
 * registration; a run of another profile already on the folder makes this a
 * {@link UserError} before `body` starts.
 */
export async function withRunLock<T>(profile: Profile, body: () => Promise<T>): Promise<T> {
  const digest = profileDigest(profile);
  const folder = resolve(outDir());
  const held = holding.get(folder);
  if (held) {
    if (held.digest !== digest) {
      throw new Error("one process cannot run two profiles on one output folder at once");
    }
    held.depth++;
    try {
      return await body();
    } finally {
      held.depth--;
    }
  }
  await checkOutDir();
  const claim: RunClaim = {
    profile: profile.name,
    digest,
    pid: Deno.pid,
    started: new Date().toISOString(),
  };
  const mine: Held = await withGate(async () => {
    const other = (await liveClaims()).find((c) => c.digest !== digest);
    if (other) throw new UserError(inUse(other));
    await Deno.mkdir(runsDir(), { recursive: true });
    const path = join(runsDir(), `${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.json`);
    const file = await Deno.open(path, { write: true, createNew: true });
    await file.lock(true);
    await file.write(new TextEncoder().encode(JSON.stringify(claim) + "\n"));
    return { digest, depth: 1, file, path };
  });
  holding.set(folder, mine);
  try {
    return await body();
  } finally {
    holding.delete(folder);
    await Deno.remove(mine.path).catch(() => {});
    mine.file.close();
  }
}

/**
 * Run `body` only if no other process holds a claim on the folder, with new
 * runs kept waiting until it ends; resolves to `undefined` without running it
 * otherwise. For what only the folder's sole user may do: putting back the
 * previous run's files, removing temp files of writes that never finished.
 */
export async function whenAlone<T>(body: () => Promise<T>): Promise<T | undefined> {
  return await withGate(async () => {
    const others = (await liveClaims()).filter((c) => c.pid !== Deno.pid);
    return others.length === 0 ? await body() : undefined;
  });
}

/** The output folder is a folder, or can be made one: else one line naming it. */
async function checkOutDir(): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(outDir());
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw new UserError(`output folder ${outDir()}: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!info.isDirectory) {
    throw new UserError(
      `output folder ${outDir()} is a file, not a folder (set EXECRET_OUT to a folder)`,
    );
  }
}

function inUse(c: RunClaim): string {
  return `${outDir()} is in use by a run of profile "${c.profile}" (pid ${c.pid}, since ${c.started}); ` +
    `wait for it to end, or give this run another folder with EXECRET_OUT`;
}

/** Hold `out/locks/run.gate` (waiting for it) while `body` runs. */
async function withGate<T>(body: () => Promise<T>): Promise<T> {
  await Deno.mkdir(locksDir(), { recursive: true });
  const gate = await Deno.open(join(locksDir(), "run.gate"), { write: true, create: true });
  try {
    await gate.lock(true);
    return await body();
  } finally {
    gate.close();
  }
}

/** The claims of live runs; a dead run's file (its lock free) is removed. Call under the gate. */
async function liveClaims(): Promise<RunClaim[]> {
  const live: RunClaim[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runsDir())];
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return live;
    throw e;
  }
  for (const e of entries) {
    const path = join(runsDir(), e.name);
    if (holding.get(resolve(outDir()))?.path === path) {
      live.push(JSON.parse(await Deno.readTextFile(path)));
      continue;
    }
    const file = await Deno.open(path, { read: true, write: true }).catch(() => null);
    if (file === null) continue;
    try {
      if (await file.tryLock(true)) {
        await Deno.remove(path).catch(() => {});
        continue;
      }
      const text = await Deno.readTextFile(path);
      // A file still being written by a run inside the gate cannot be seen here (we hold the gate).
      live.push(JSON.parse(text));
    } finally {
      file.close();
    }
  }
  return live;
}
