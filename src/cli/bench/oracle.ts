import { parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { readTableRows } from "../../io/arrow_table.ts";
import { tablePath } from "../../io/paths.ts";
import type { Job, TestOutcome } from "../../oracle/outcome.ts";
import { createPool, type OraclePool, type Runtime } from "../../oracle/pool.ts";
import { ExecutionCache, suiteCodeSha, suiteKey, testsSha } from "../../oracle/cache.ts";
import { runtimeId } from "../../oracle/run_suites.ts";
import { MUTANTS, TASKS } from "../../tables/schema.ts";
import { median } from "../../common/median.ts";
import { nativeRuntime } from "../../oracle/native_slots.ts";
import { interpreterFloor } from "./oracle_floor.ts";
import { loadManifest, obtainSource, SourceError, type SourceFile } from "../../tasks/external.ts";

/**
 * The bench corpus: canonicals and mutants from the pipeline's tables, or,
 * when they are absent, MBPP canonicals with a few textual single-edit
 * variants each ({@link mbppCorpus}). Deterministic: the first `size` suites in task order.
 */
export async function benchCorpus(size: number): Promise<{ jobs: Job[]; from: string }> {
  try {
    const tasks = await readTableRows(tablePath("tasks"), TASKS);
    const mutants = await readTableRows(tablePath("mutants"), MUTANTS);
    const byTask = new Map<string, { code: string; order: number }[]>();
    for (const m of mutants) {
      const list = byTask.get(m.task_id) ?? [];
      list.push(m);
      byTask.set(m.task_id, list);
    }
    const jobs: Job[] = [];
    for (const t of tasks) {
      const setup = t.setup ?? "";
      const tests = t.tests ?? [];
      jobs.push({ setup, code: t.canonical, tests });
      const list = (byTask.get(t.task_id) ?? []).sort((a, b) => a.order - b.order);
      for (const m of list) jobs.push({ setup, code: m.code, tests });
      if (jobs.length >= size) break;
    }
    if (jobs.length > 0) return { jobs: jobs.slice(0, size), from: "out/tables tasks + mutants" };
  } catch {
    // No pipeline tables yet: fall back to MBPP.
  }
  const { jobs, via } = await mbppCorpus(size);
  return { jobs, from: `MBPP (${via}) + textual mutants` };
}

const EDITS: [string, string][] = [
  ["<=", "<"],
  [" < ", " <= "],
  [" + 1", ""],
  [" - 1", ""],
  [" + ", " - "],
  ["==", "!="],
  ["range(1,", "range(0,"],
  [" > ", " >= "],
];

/**
 * MBPP's canonicals, each with a few textual single-edit variants. MBPP comes
 * the way the tasks stage gets it (`obtainSource`): from `EXECRET_MIRROR`,
 * else the kit's verified source cache, else the official download, so the
 * bench runs wherever `make reproduce` can, with no folder of this machine
 * assumed.
 */
async function mbppCorpus(size: number): Promise<{ jobs: Job[]; via: string }> {
  let file: SourceFile;
  try {
    const spec = (await loadManifest()).mbpp;
    file = await obtainSource(spec, { mirror: Deno.env.get("EXECRET_MIRROR") || undefined });
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    throw new UserError(
      `no tasks/mutants tables, and no MBPP to build a corpus from: ${e.message}`,
    );
  }
  const jobs: Job[] = [];
  for (const { value } of file.records) {
    // data/sources.json pins these fields' types, and obtainSource checked them.
    const row = value as { code: string; test_list: string[]; test_setup_code: string };
    const code = row.code.replaceAll("\r\n", "\n");
    const job = { setup: row.test_setup_code, tests: row.test_list };
    jobs.push({ ...job, code });
    for (const [from, to] of EDITS) {
      const at = code.indexOf(from);
      if (at >= 0) {
        jobs.push({ ...job, code: code.slice(0, at) + to + code.slice(at + from.length) });
      }
    }
    if (jobs.length >= size) break;
  }
  return { jobs: jobs.slice(0, size), via: file.via };
}

/** Per job: true/false when a cached oracle run says whether it times out, else undefined. */
async function knownTimeouts(jobs: Job[]): Promise<(boolean | undefined)[]> {
  const known: (boolean | undefined)[] = new Array(jobs.length).fill(undefined);
  for (const runtime of ["pyodide", "native"] as const) {
    let cache: ExecutionCache;
    try {
      cache = await ExecutionCache.open(await runtimeId(runtime), 1000);
    } catch {
      continue;
    }
    try {
      jobs.forEach((j, i) => {
        const hit = cache.get(suiteKey(suiteCodeSha(j.setup, j.code), testsSha(j.tests)));
        if (hit && known[i] === undefined) known[i] = hit.some((o) => o.outcome === "TIMEOUT");
      });
    } finally {
      cache.close();
    }
  }
  return known;
}

interface RuntimeFigures {
  runtime: string;
  workers: number;
  startSeconds: number;
  /** Median over the measured passes. */
  seconds: number;
  cpuSeconds: number;
  /** Every measured pass, in run order (wall seconds). */
  passSeconds: number[];
  /** The warm-up pass (a fresh pool's first run over the corpus), wall seconds. */
  firstPassSeconds: number;
  suitesPerSecond: number;
  /** Suites per CPU second: steadier than wall time on a shared machine. */
  suitesPerCpuSecond: number;
  testsPerSecond: number;
  timeouts: number;
  kills: number;
  crashes: number;
  deaths: string[];
  outcomes: TestOutcome[][];
}

/**
 * Both runtimes over the same jobs: each pool first runs a warm-up pass (V8
 * tiers Pyodide's wasm up over the first seconds of work, and the driver
 * caches compiled tests in both), then the runtimes take turns for `passes`
 * measured passes, so a burst of load elsewhere on the machine hits both
 * alike; each runtime's figure is its median pass. Every pass runs `copies`
 * copies of the corpus: a pass of one copy took ~0.5 s here, short
 * enough that the batch a pool finishes alone at its end, and a moment of
 * load elsewhere, swung one pass's ratio from 0.45x to 0.98x; the oracle
 * stage runs its suites for tens of seconds without a break. Every copy in
 * every pass has its own text (a trailing comment naming pass and copy): the
 * driver keeps the code objects of snippets it has seen, and the oracle
 * compiles each snippet once, so cached code would measure a cheaper job.
 */
async function measureBoth(
  jobs: Job[],
  workers: number,
  timeoutMs: number,
  passes: number,
  copies: number,
  batchMax?: number,
): Promise<{ figures: RuntimeFigures[]; passRatios: number[] }> {
  const runtimes: Runtime[] = ["pyodide", "native"];
  const pools: OraclePool[] = [];
  const starts: number[] = [];
  try {
    for (const runtime of runtimes) {
      const t0 = performance.now();
      pools.push(await createPool({ runtime, workers, timeoutMs, batchMax }));
      starts.push((performance.now() - t0) / 1000);
    }
    const passJobs = (pass: number, n: number) =>
      Array.from(
        { length: n },
        (_, copy) =>
          jobs.map((j) => ({ ...j, code: `${j.code}\n# bench pass ${pass} copy ${copy}\n` })),
      ).flat();
    const outcomes: TestOutcome[][][] = [];
    const first: number[] = [];
    const warmUp = passJobs(-1, copies);
    for (const pool of pools) {
      const t1 = performance.now();
      outcomes.push((await Promise.all(warmUp.map((j) => pool.run(j)))).slice(0, jobs.length));
      first.push((performance.now() - t1) / 1000);
    }
    const wall: number[][] = pools.map(() => []);
    const cpu: number[][] = pools.map(() => []);
    for (let pass = 0; pass < passes; pass++) {
      const these = passJobs(pass, copies);
      // Alternate which runtime goes first, so neither always meets the load the other left.
      for (const i of pass % 2 === 0 ? [0, 1] : [1, 0]) {
        const pool = pools[i];
        const t1 = performance.now();
        const c1 = pool.cpuSeconds();
        await Promise.all(these.map((j) => pool.run(j)));
        wall[i].push((performance.now() - t1) / 1000);
        cpu[i].push(pool.cpuSeconds() - c1);
      }
    }
    // Each pass's runtimes ran back to back, under much the same load.
    const passRatios = wall[0].map((pyodideSeconds, pass) => wall[1][pass] / pyodideSeconds);
    const figures = pools.map((pool, i) => {
      const seconds = median(wall[i]);
      const cpuSeconds = median(cpu[i]);
      const tests = outcomes[i].reduce((n, o) => n + o.length, 0);
      const stats = pool.stats();
      return {
        runtime: pool.runtime,
        workers,
        startSeconds: starts[i],
        seconds,
        cpuSeconds,
        passSeconds: wall[i],
        firstPassSeconds: first[i],
        suitesPerSecond: jobs.length * copies / seconds,
        suitesPerCpuSecond: jobs.length * copies / cpuSeconds,
        testsPerSecond: tests * copies / seconds,
        timeouts: outcomes[i].flat().filter((o) => o.outcome === "TIMEOUT").length,
        kills: stats.kills,
        crashes: stats.crashes,
        deaths: stats.deaths,
        outcomes: outcomes[i],
      };
    });
    return { figures, passRatios };
  } finally {
    for (const pool of pools) pool.close();
  }
}

/** One pass of one runtime, for the native pre-pass that finds suites that time out. */
async function runOnce(
  runtime: Runtime,
  jobs: Job[],
  workers: number,
  timeoutMs: number,
): Promise<TestOutcome[][]> {
  const pool = await createPool({ runtime, workers, timeoutMs });
  try {
    return await Promise.all(jobs.map((j) => pool.run(j)));
  } finally {
    pool.close();
  }
}

/** `execret bench oracle`: snippets/s of the Pyodide pool and the native runtime on one corpus. */
export async function benchOracle(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    size: { type: "string" },
    workers: { type: "string" },
    "timeout-ms": { type: "string" },
    passes: { type: "string" },
    copies: { type: "string" },
    batch: { type: "string" },
    "no-floor": { type: "boolean" },
  });
  const size = positiveInt("size", values.size, 5000);
  const workers = positiveInt("workers", values.workers, navigator.hardwareConcurrency ?? 1);
  const timeoutMs = positiveInt("timeout-ms", values["timeout-ms"], 250);
  const passes = positiveInt("passes", values.passes, 7);
  const copies = positiveInt("copies", values.copies, 4);
  const batchMax = values.batch === undefined ? undefined : positiveInt("batch", values.batch, 128);
  const candidates = await benchCorpus(Math.ceil(size * 1.25));
  const { from } = candidates;
  // Time spent waiting out infinite loops is the same in both runtimes and
  // would hide the execution speed, so suites that time out are left out:
  // known from the oracle stage's cache when it ran, else from a native pre-pass.
  const timesOut = await knownTimeouts(candidates.jobs);
  const unknown = candidates.jobs.map((_, i) => i).filter((i) => timesOut[i] === undefined);
  if (unknown.length > 0) {
    const prepass = await runOnce(
      "native",
      unknown.map((i) => candidates.jobs[i]),
      workers,
      timeoutMs,
    );
    unknown.forEach((i, k) => timesOut[i] = prepass[k].some((o) => o.outcome === "TIMEOUT"));
  }
  const jobs = candidates.jobs.filter((_, i) => !timesOut[i]).slice(0, size);
  const dropped = timesOut.filter((t) => t).length;
  const loadBefore = Deno.loadavg();
  const { figures: [pyodide, native], passRatios } = await measureBoth(
    jobs,
    workers,
    timeoutMs,
    passes,
    copies,
    batchMax,
  );
  const loadAfter = Deno.loadavg();
  // The interpreters alone, on the suites that ran to the end in both pools.
  const finished = jobs.filter((_, i) =>
    ![pyodide, native].some((f) => f.outcomes[i].some((o) => o.outcome === "TIMEOUT"))
  );
  const floor = values["no-floor"]
    ? null
    : await interpreterFloor(finished, passes, await nativeRuntime());
  let agree = 0;
  for (let i = 0; i < jobs.length; i++) {
    const a = pyodide.outcomes[i].map((o) => o.outcome).join();
    const b = native.outcomes[i].map((o) => o.outcome).join();
    if (a === b) agree++;
  }
  const strip = ({ outcomes: _, ...rest }: RuntimeFigures) => rest;
  const result = {
    corpus: { suites: jobs.length, from, timeoutMs, droppedForTimeouts: dropped, passes, copies },
    cores: navigator.hardwareConcurrency,
    loadavg: { before: loadBefore, after: loadAfter },
    pyodide: strip(pyodide),
    native: strip(native),
    ratio: native.suitesPerSecond / pyodide.suitesPerSecond,
    /** The goal's figure: the sandbox's suites/s as a fraction of native's (median passes). */
    pyodideOverNative: pyodide.suitesPerSecond / native.suitesPerSecond,
    /** Pyodide over native pass by pass, and their median: steadier under drifting load. */
    passRatios,
    medianPassRatio: median(passRatios),
    pyodideOverNativeCpu: pyodide.suitesPerCpuSecond / native.suitesPerCpuSecond,
    cpuRatio: native.suitesPerCpuSecond / pyodide.suitesPerCpuSecond,
    sameOutcomes: agree / jobs.length,
    /**
     * Both interpreters alone (one thread, no pool): the ratio the pools
     * could reach with no overhead at all, and how much of each
     * interpreter's own speed its pool keeps.
     */
    interpreters: floor === null ? null : {
      suites: finished.length,
      ...floor,
      pyodidePoolShare: pyodide.suitesPerSecond / workers / floor.pyodideSuitesPerSecond,
      nativePoolShare: native.suitesPerSecond / workers / floor.nativeSuitesPerSecond,
    },
  };
  if (values.json) {
    printJson(result);
    return 0;
  }
  const row = (f: RuntimeFigures) =>
    `${f.runtime.padEnd(22)} ${f.suitesPerSecond.toFixed(0).padStart(6)} suites/s ` +
    `${f.testsPerSecond.toFixed(0).padStart(7)} tests/s  ${f.seconds.toFixed(1).padStart(5)} s, ` +
    `${f.suitesPerCpuSecond.toFixed(0).padStart(6)} suites per CPU s ` +
    `(start ${f.startSeconds.toFixed(1)} s, warm-up pass ` +
    `${(jobs.length * copies / f.firstPassSeconds).toFixed(0)} suites/s, ` +
    `${f.timeouts} TIMEOUT, ${f.kills} kills, ${f.crashes} crashes)`;
  console.log(
    `bench oracle: ${jobs.length} suites (${from}; ${dropped} suites that time out left out), ` +
      `${workers} workers, ${timeoutMs} ms per test, median of ${passes} passes of ${copies} copies each after a warm-up pass, ` +
      `load average ${
        loadBefore.map((x) => x.toFixed(1)).join(" ")
      } on ${navigator.hardwareConcurrency} cores`,
  );
  console.log(row(pyodide));
  console.log(row(native));
  for (const f of [pyodide, native]) {
    for (const d of f.deaths) console.log(`  ${f.runtime} worker died: ${d.slice(0, 200)}`);
  }
  console.log(
    `pyodide / native = ${result.pyodideOverNative.toFixed(2)}x wall (median of per-pass ratios ` +
      `${result.medianPassRatio.toFixed(2)}x: ${passRatios.map((r) => r.toFixed(2)).join(" ")}), ` +
      `${result.pyodideOverNativeCpu.toFixed(2)}x per CPU second`,
  );
  const f = result.interpreters;
  if (f !== null) {
    console.log(
      `interpreters alone (one thread each, no pool; ${f.suites} suites): Pyodide's CPython ` +
        `${f.pyodideVersion} ${f.pyodideSuitesPerSecond.toFixed(0)} suites/s, CPython ` +
        `${f.nativeVersion} ${f.nativeSuitesPerSecond.toFixed(0)} suites/s: ${
          f.ratio.toFixed(2)
        }x; ` +
        `per worker, the pools keep ${(100 * f.pyodidePoolShare).toFixed(0)}% (Pyodide) and ` +
        `${(100 * f.nativePoolShare).toFixed(0)}% (native) of that speed`,
    );
    if (f.pyodidePassed !== f.nativePassed) {
      console.log(
        `  interpreters alone passed ${f.pyodidePassed} (Pyodide) and ${f.nativePassed} (native) tests`,
      );
    }
  }
  console.log(
    `native / pyodide = ${result.ratio.toFixed(2)}x wall, ${result.cpuRatio.toFixed(2)}x CPU; ` +
      `identical outcomes on ` +
      `${(100 * result.sameOutcomes).toFixed(1)}% of suites; load average after ` +
      loadAfter.map((x) => x.toFixed(1)).join(" "),
  );
  return 0;
}
