import { ExecutionCache, suiteCodeSha, suiteKey, testsSha } from "./cache.ts";
import type { Job, TestOutcome } from "./outcome.ts";
import { createPool, type OraclePool, type Runtime } from "./pool.ts";
import { PYODIDE_VERSION } from "./pyodide_pool.ts";
import { nativeRuntime } from "./native_pool.ts";
import { progress } from "../io/progress.ts";

/** A suite to run; `rep` > 0 asks for an independent repeat (the flakiness gate). */
export interface SuiteJob extends Job {
  rep?: number;
}

/** One suite's result with the hashes it is cached and reported under. */
export interface SuiteResult {
  codeSha: string;
  testsSha: string;
  outcomes: TestOutcome[];
  /** True when the result came from the cache (nothing executed). */
  cached: boolean;
}

/** The runtime string a runtime's results are cached and reported under. */
export async function runtimeId(runtime: Runtime): Promise<string> {
  return runtime === "pyodide" ? `pyodide-${PYODIDE_VERSION}` : (await nativeRuntime()).runtime;
}

/** Options of {@link runSuites}. */
export interface RunSuitesOptions {
  runtime: Runtime;
  workers?: number;
  timeoutMs?: number;
  quiet?: boolean;
  /** Progress label (default "oracle"). */
  label?: string;
  /**
   * Start the pool only on demand and keep it for later calls: a caller
   * running suites in rounds passes the same holder each time and closes
   * `holder.pool` when done.
   */
  poolHolder?: { pool?: OraclePool };
}

/** What {@link runSuites} did, besides the results. */
export interface RunSuitesReport {
  runtime: string;
  executed: number;
  cached: number;
  seconds: number;
  pool?: ReturnType<OraclePool["stats"]>;
}

/**
 * Run suites through the cache: known ones come from the cache file, the rest
 * run in a pool (started only if something is left to run) and are appended to
 * the cache as each completes, so a killed run resumes where it stopped.
 */
export async function runSuites(
  jobs: readonly SuiteJob[],
  options: RunSuitesOptions,
): Promise<{ results: SuiteResult[]; report: RunSuitesReport }> {
  const t0 = performance.now();
  const timeoutMs = options.timeoutMs ?? 1000;
  const runtime = await runtimeId(options.runtime);
  const cache = await ExecutionCache.open(runtime, timeoutMs);
  const results: SuiteResult[] = new Array(jobs.length);
  const todo: { index: number; key: string }[] = [];
  const firstOfKey = new Map<string, number>();
  try {
    for (const [index, job] of jobs.entries()) {
      const codeSha = suiteCodeSha(job.setup, job.code);
      const tSha = testsSha(job.tests);
      const key = suiteKey(codeSha, tSha, job.rep ?? 0);
      const hit = cache.get(key);
      results[index] = { codeSha, testsSha: tSha, outcomes: hit ?? [], cached: hit !== undefined };
      if (!hit && !firstOfKey.has(key)) {
        firstOfKey.set(key, index);
        todo.push({ index, key });
      }
    }
    let poolStats: RunSuitesReport["pool"];
    if (todo.length > 0) {
      const holder = options.poolHolder;
      const pool = holder?.pool ?? await createPool({
        runtime: options.runtime,
        workers: options.workers,
        timeoutMs,
      });
      if (holder) holder.pool = pool;
      const bar = progress(options.label ?? "oracle", todo.length, { quiet: options.quiet });
      try {
        await Promise.all(todo.map(async ({ index, key }) => {
          const outcomes = await pool.run(jobs[index]);
          cache.put(key, outcomes);
          bar.tick();
        }));
        poolStats = pool.stats();
        bar.done(`${todo.length} suites executed, ${jobs.length - todo.length} from cache`);
      } finally {
        if (!holder) pool.close();
      }
    }
    // Every result, fresh or not, is read back from the cache: the same bytes either way.
    for (const [index, job] of jobs.entries()) {
      const r = results[index];
      r.outcomes = cache.get(suiteKey(r.codeSha, r.testsSha, job.rep ?? 0)) ?? [];
    }
    return {
      results,
      report: {
        runtime,
        executed: todo.length,
        cached: jobs.length - todo.length,
        seconds: (performance.now() - t0) / 1000,
        pool: poolStats,
      },
    };
  } finally {
    cache.close();
  }
}
