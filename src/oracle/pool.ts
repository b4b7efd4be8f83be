import type { Job, TestOutcome } from "./outcome.ts";
import { type PoolStats, WorkerPool } from "./worker_pool.ts";
import { join } from "node:path";
import process from "node:process";
import { driverSource } from "./driver_source.ts";
import { makeSnapshot, PYODIDE_VERSION, stallAfterMs } from "./pyodide_slots.ts";
import { pyodideProcessSlotFactory } from "./pyodide_process.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { sha256Hex } from "../io/hash.ts";
import { cacheDir } from "../io/paths.ts";
import { nativeRuntime, nativeSlotFactory } from "./native_slots.ts";

/** Which sandbox runs the snippets. */
export type Runtime = "pyodide" | "native";

/** Options of {@link createPool}. */
export interface PoolOptions {
  runtime: Runtime;
  /** Worker count (default: `navigator.hardwareConcurrency`). */
  workers?: number;
  /** Per-test timeout in ms (default 1000). */
  timeoutMs?: number;
  /**
   * Snippets per message to a worker (default 128). Between two batches a
   * worker waits for its results to reach the pool and the next batch to
   * come back (~1.5 ms through a Pyodide host): 9-14% of a Pyodide worker's
   * time at 32 per batch. At 128 `bench oracle` ran Pyodide's pool 1.16-1.29x
   * faster and native's 1.05-1.14x; the oracle stage's outcomes were the same
   * bytes and its time within the noise (32.8-34.3 s against 35.1-36.5 s).
   */
  batchMax?: number;
  /** Recycle a worker whose memory grew past this (default 512 MiB). */
  memoryLimitBytes?: number;
  /**
   * Extra workers allowed while others wait out a long test (default: as many
   * as `workers`; Pyodide only, whose slots see single tests). See
   * `WorkerPoolOptions.spares` in worker_pool.ts.
   */
  spares?: number;
}

/** A running set of sandboxed Python workers. */
export interface OraclePool {
  /** e.g. "pyodide-314.0.7" or "cpython-3.11.7+netns": part of every cache key. */
  readonly runtime: string;
  readonly workers: number;
  readonly timeoutMs: number;
  /** One outcome per test, whatever the snippet does. */
  run(job: Job): Promise<TestOutcome[]>;
  /** Kills, crashes, recycles, respawn times. */
  stats(): PoolStats & { startMs: number };
  /** CPU seconds used by this process plus its live worker processes. */
  cpuSeconds(): number;
  close(): void;
}

let snapshot: Promise<string> | undefined;

/**
 * Where a cache folder keeps the Pyodide memory snapshot (interpreter
 * loaded, driver defined), named by Pyodide version and driver hash: a cold
 * load costs seconds, restoring the snapshot a fraction of one.
 */
export function snapshotFile(cache: string = cacheDir()): string {
  const name = `${PYODIDE_VERSION}-${sha256Hex(driverSource()).slice(0, 16)}.snapshot`;
  return join(cache, "pyodide", name);
}

/** The snapshot file of cache folder `cache`, made and written there when missing. */
export async function ensureSnapshot(cache: string = cacheDir()): Promise<string> {
  const path = snapshotFile(cache);
  try {
    if ((await Deno.stat(path)).isFile) return path;
  } catch {
    // Not made yet: make it.
  }
  const bytes = await makeSnapshot();
  try {
    await atomicWrite(path, bytes);
    return path;
  } catch {
    // A cache that cannot be written (read-only output): a file of this run's own will do.
    const tmp = await Deno.makeTempFile({ prefix: "execret-pyodide-", suffix: ".snapshot" });
    await Deno.writeFile(tmp, bytes);
    return tmp;
  }
}

/**
 * Give cache folder `to` the snapshot of cache folder `from` (made there when
 * missing), for runs that should not each spend ~7 CPU-s making the same
 * file: the growth benchmark's scales, and tests. It holds no result.
 */
export async function seedSnapshot(to: string, from: string = cacheDir()): Promise<void> {
  const source = await ensureSnapshot(from);
  const target = snapshotFile(to);
  if (source === target) return;
  await atomicWrite(target, await Deno.readFile(source));
}

/**
 * Start a pool of sandboxed workers.
 */
export async function createPool(options: PoolOptions): Promise<OraclePool> {
  const t0 = performance.now();
  const workers = options.workers ?? navigator.hardwareConcurrency ?? 1;
  const timeoutMs = options.timeoutMs ?? 1000;
  let runtime: string;
  let factory;
  if (options.runtime === "pyodide") {
    // One cold load per process; every worker and respawn starts from its snapshot.
    snapshot ??= ensureSnapshot();
    const snapshotPath = await snapshot.catch((e) => {
      snapshot = undefined;
      throw e;
    });
    factory = pyodideProcessSlotFactory({ snapshotPath, timeoutMs });
    runtime = `pyodide-${PYODIDE_VERSION}`;
  } else if (options.runtime === "native") {
    const native = await nativeRuntime();
    factory = nativeSlotFactory({ native, timeoutMs });
    runtime = native.runtime;
  } else {
    throw new Error(`unknown runtime "${options.runtime}" (expected pyodide or native)`);
  }
  const pool = new WorkerPool(factory, workers, {
    batchMax: options.batchMax ?? 128,
    memoryLimitBytes: options.memoryLimitBytes ?? 512 * 1024 * 1024,
    spares: options.spares ?? workers,
    // A spare helps only if it is up before the stalled test's timeout cuts it.
    stallLeftMs: options.runtime === "pyodide" ? timeoutMs - stallAfterMs(timeoutMs) : undefined,
  });
  await pool.start();
  const startMs = performance.now() - t0;
  return {
    runtime,
    workers,
    timeoutMs,
    run: (job) => pool.run(job),
    stats: () => ({ ...pool.stats, startMs }),
    cpuSeconds: () => {
      const own = process.cpuUsage();
      return (own.user + own.system) / 1e6 + pool.childCpuSeconds();
    },
    close: () => pool.close(),
  };
}
