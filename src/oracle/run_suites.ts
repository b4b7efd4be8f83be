import { ExecutionCache, suiteCodeSha, suiteKey, testsSha } from "./cache.ts";
import type { Job, TestOutcome } from "./outcome.ts";
import { createPool, type OraclePool, type Runtime } from "./pool.ts";
import { PYODIDE_VERSION } from "./pyodide_slots.ts";
import { nativeRuntime } from "./native_slots.ts";
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
 * Runs suites through the cache one at a time as a caller asks for them, so a
 * caller can decide what to run next from each result while the pool stays
 * busy: known suites come from the cache file, the rest run in a pool (started
 * only when something needs running) and are appended to the cache as each
 * completes, so a killed run resumes where it stopped.
 */
export class SuiteRunner {
  #executed = 0;
  #cached = 0;
  #pool?: Promise<OraclePool>;
  #bar?: ReturnType<typeof progress>;
  #running = new Map<string, { stopAtTimeout: boolean; done: Promise<void> }>();
  readonly #t0 = performance.now();

  private constructor(
    readonly runtime: string,
    private readonly cache: ExecutionCache,
    private readonly options: RunSuitesOptions,
  ) {}

  static async open(options: RunSuitesOptions): Promise<SuiteRunner> {
    const runtime = await runtimeId(options.runtime);
    const cache = await ExecutionCache.open(runtime, options.timeoutMs ?? 1000);
    return new SuiteRunner(runtime, cache, options);
  }

  /** One suite's outcomes, from the cache or executed. */
  async run(job: SuiteJob): Promise<SuiteResult> {
    const codeSha = suiteCodeSha(job.setup, job.code);
    const tSha = testsSha(job.tests);
    const key = suiteKey(codeSha, tSha, job.rep ?? 0);
    const stop = job.stopAtTimeout ?? false;
    let executed = false;
    for (;;) {
      const hit = this.cache.get(key, stop);
      if (hit) {
        if (!executed) this.#cached++;
        // Read back from the cache whether fresh or not: the same values either way.
        return { codeSha, testsSha: tSha, outcomes: hit, cached: !executed };
      }
      // The same suite already running serves this request once it is done,
      // unless it stops at a TIMEOUT and this one must run every test.
      if (executed) throw new Error(`oracle: suite ${key} ran but its result was not kept`);
      const running = this.#running.get(key);
      if (running && (stop || !running.stopAtTimeout)) {
        await running.done;
        continue;
      }
      executed = true;
      const done = this.#execute(key, job);
      this.#running.set(key, { stopAtTimeout: stop, done });
      try {
        await done;
      } finally {
        if (this.#running.get(key)?.done === done) this.#running.delete(key);
      }
    }
  }

  async #execute(key: string, job: SuiteJob): Promise<void> {
    this.#executed++;
    this.#bar ??= progress(this.options.label ?? "oracle", 0, { quiet: this.options.quiet });
    this.#bar.setTotal(this.#executed);
    const holder = this.options.poolHolder;
    this.#pool ??= holder?.pool ? Promise.resolve(holder.pool) : createPool({
      runtime: this.options.runtime,
      workers: this.options.workers,
      timeoutMs: this.options.timeoutMs ?? 1000,
    }).then((pool) => {
      if (holder) holder.pool = pool;
      return pool;
    });
    const pool = await this.#pool;
    const outcomes = await pool.run(job);
    this.cache.put(key, outcomes);
    this.#bar.tick();
  }

  /** What ran so far. */
  report(): RunSuitesReport {
    return {
      runtime: this.runtime,
      executed: this.#executed,
      cached: this.#cached,
      seconds: (performance.now() - this.#t0) / 1000,
    };
  }

  /** Close the cache file, and the pool unless a holder keeps it. */
  async close(): Promise<void> {
    if (this.#bar && this.#executed > 0) {
      this.#bar.done(`${this.#executed} suites executed, ${this.#cached} from cache`);
    }
    this.cache.close();
    if (this.#pool && !this.options.poolHolder) (await this.#pool.catch(() => null))?.close();
  }

  /** The pool's counters, when a pool was started. */
  async poolStats(): Promise<RunSuitesReport["pool"]> {
    return this.#pool ? (await this.#pool.catch(() => null))?.stats() : undefined;
  }
}

/** Run a list of suites through a {@link SuiteRunner}; results in the same order. */
export async function runSuites(
  jobs: readonly SuiteJob[],
  options: RunSuitesOptions,
): Promise<{ results: SuiteResult[]; report: RunSuitesReport }> {
  const runner = await SuiteRunner.open(options);
  try {
    const results = await Promise.all(jobs.map((j) => runner.run(j)));
    return { results, report: { ...runner.report(), pool: await runner.poolStats() } };
  } finally {
    await runner.close();
  }
}
