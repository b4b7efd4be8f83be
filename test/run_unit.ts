/**
 * `make unit`: every test of the project as jobs, a few at a time, each a
 * `deno test` process of its own writing `out/test-<job>.log`.
 *
 * Why processes: test files in one `deno test` process share its environment
 * (tests set EXECRET_OUT, EXECRET_MIRROR; child processes inherit them) and
 * run one after another. Why three at a time on two cores: with three the
 * cores stay busy (vmstat: 0% idle after `check`), with two ~6% idle, and
 * `make test` took the same ~5 min 40 s either way in one pair of runs.
 * The jobs are the fast suite in shards (test/fast_suite.ts) and the files
 * that take longest, each alone, longest first: a slot that frees up takes
 * the next job, so the long ones do not start last and no fixed split of
 * the files has to balance. Site builds of one checkout wait for each other
 * (src/site/build_lock.ts), so the jobs that build sites may run together.
 * A job marked `solo` (one that loads the machine on purpose) runs alone.
 *
 * Usage: deno run -A test/run_unit.ts (from the project root).
 * Environment: EXECRET_TEST_SLOTS (processes at a time, default 3).
 *
 * @module
 */

/** One `deno test` process of `make unit`. */
export interface UnitJob {
  /** Its name in progress lines and in its log's, `out/test-<name>.log`. */
  name: string;
  /** Test files or folders, relative to the project. */
  paths: string[];
  /** Extra environment (the fast suite's shard). */
  env?: Record<string, string>;
  /**
   * Run alone: the job starts only once no other job runs, and no other job
   * starts until it has ended (a job that loads the machine on purpose, whose
   * load would slow every job beside it and be diluted by theirs).
   */
  solo?: boolean;
}

/** The module that runs the fast suite: every test file no other job names. */
export const FAST_SUITE = "test/fast_suite.ts";
/**
 * The fast suite's shards run last, and the last of them ran alone for its
 * final ~20 s in a fresh clone's make test (three shards of ~30 CPU-s; a
 * shard is one process, one core): four shorter ones leave less of the end
 * to one core.
 */
const FAST_SHARDS = 4;

function fast(i: number): UnitJob {
  return {
    name: `fast-${i + 1}`,
    paths: [FAST_SUITE],
    env: { EXECRET_TEST_SHARD: `${i}/${FAST_SHARDS}` },
  };
}

/**
 * Every job, the longest first as three run at a time on 2 cores, so the last
 * to start are short. Measured on this machine (2026-12-02) in a fresh
 * clone's `make unit`: wall s / CPU-s of the job's processes (sampled from /proc).
 */
export const UNIT_JOBS: readonly UnitJob[] = [
  // The oracle quiet and beside three CPU hogs with 3× the workers: alone,
  // and first, where waiting for it costs no other job's tail. 31 s wall
  // with other users' load on the machine (2026-12-07).
  { name: "load-equality", paths: ["test/cluster/load_equality_test.ts"], solo: true },
  // Waits out a 70 s rate limit: ~100 s wall, nearly all of it idle, so first.
  { name: "rate-limit", paths: ["test/pipeline/rate_limit_test.ts"] },
  // Builds the fixture run's site and checks its pages in Chromium. 126 / 75.
  { name: "site", paths: ["test/site"] },
  // Two runs of the quick profile's first 20 tasks, one killed twice. 94 / 64.
  { name: "reproduce", paths: ["test/pipeline/reproduce_test.ts"] },
  // Worker deaths and respawns, spares, timeouts (mostly waiting). 111 / 43.
  { name: "oracle-pool", paths: ["src/oracle/pool_test.ts"] },
  // Four runs of the release profile, one with its site, and one site of two
  // runs checked page by page at 20 Mbit/s (+90 s wall). ~180 s wall.
  { name: "release-profile", paths: ["test/pipeline/release_profile_test.ts"] },
  // A rerank run with its site, rerun and resumed. 89 / 40.
  { name: "rerank", paths: ["test/pipeline/rerank_test.ts"] },
  // The hostile snippets on each runtime, 300 ms of CPU per test. 69 / 38
  // in a fresh clone's make test (2026-12-07).
  { name: "oracle-hostile", paths: ["src/oracle/hostile_test.ts"] },
  // Reproduce runs (bm25, native) that edit inputs, race and fail. ~60 s wall.
  { name: "run-inputs", paths: ["test/pipeline/run_inputs_test.ts"] },
  // Three quick-subset runs with use: warm second profile against cold. ~55 s wall.
  { name: "warm-profile", paths: ["test/pipeline/warm_profile_test.ts"] },
  // A user's model on a loopback server: release and default runs, each
  // entered on the board, and errors. 96 / 51 (2026-12-07).
  { name: "your-model", paths: ["test/pipeline/your_model_test.ts"] },
  // REFERENCE.md's Slurm recipe on a one-node cluster beside a one-machine run:
  // 48 s wall alone with other users' load; ~45 CPU-s, half of it in Slurm's jobs.
  { name: "slurm-recipe", paths: ["test/cluster/slurm_recipe_test.ts"] },
  // REFERENCE.md's shard example through the installed execret command. ~40 s wall.
  { name: "shards-example", paths: ["test/docs/shards_example_test.ts"] },
  // The whole pipeline on generated tasks. 32 / 20.
  { name: "growth", paths: ["src/cli/bench/growth_test.ts"] },
  // The tampering corpus on each runtime, in the pool and through exec
  // reranking: ~20 Pyodide workers retire and restart in each. 295 s wall
  // in a `make test` on a machine busy with other work (2026-12-04), where
  // oracle-hostile took 238 s.
  { name: "oracle-tamper", paths: ["src/oracle/tamper_test.ts", "src/rerank/exec_tamper_test.ts"] },
  // ~120 files in four shards; 31, 33 and 28 CPU-s as three shards, each alone (2026-12-07).
  ...Array.from({ length: FAST_SHARDS }, (_, i) => fast(i)),
];

/** Files and folders of the jobs other than the fast suite's (which therefore leaves them out). */
export const OWN_JOB_PATHS: readonly string[] = UNIT_JOBS
  .flatMap((j) => j.paths).filter((p) => p !== FAST_SUITE);

/**
 * Run `jobs` with `slots` at a time, in order: whenever one ends, the next
 * starts. A job `solo` says is solo starts, in its turn, only once every
 * running job has ended, and no job starts while it runs. Resolves to each
 * job's exit code, in the jobs' order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { runJobs } from "./run_unit.ts";
 * deepStrictEqual(await runJobs([3, 0, 1], 2, (n) => Promise.resolve(n)), [3, 0, 1]);
 * ```
 */
export async function runJobs<T>(
  jobs: readonly T[],
  slots: number,
  run: (job: T) => Promise<number>,
  solo: (job: T) => boolean = () => false,
): Promise<number[]> {
  const codes: number[] = new Array(jobs.length);
  let next = 0;
  let running = 0;
  let alone = false;
  let waiting: (() => void)[] = [];
  const changed = () => {
    const wake = waiting;
    waiting = [];
    for (const w of wake) w();
  };
  const slot = async () => {
    while (next < jobs.length) {
      const i = next;
      const isSolo = solo(jobs[i]);
      if (alone || (isSolo && running > 0)) {
        await new Promise<void>((r) => waiting.push(r));
        continue;
      }
      next++;
      running++;
      alone = isSolo;
      try {
        codes[i] = await run(jobs[i]).catch(() => 1);
      } finally {
        running--;
        if (isSolo) alone = false;
        changed();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(slots, jobs.length)) }, slot));
  return codes;
}

const TEST = ["test", "--allow-all", "--unstable-worker-options", "--cached-only", "--no-check"];

/**
 * glibc's malloc asks for transparent huge pages for its large mappings: on
 * this VM every fresh 4 KiB page costs ~13 µs of kernel time (31 MB read into
 * a new buffer: 113 ms, 40 ms with it), and the tests boot many Pyodide hosts,
 * models and sites; the reproduce job used 10% less CPU with it, the oracle
 * pool's 6%. It changes how memory is mapped, not what is computed. The kit's
 * locked-down children keep it (src/io/child_env.ts); a GLIBC_TUNABLES of the
 * user's own is left as it is.
 */
const TUNING = { GLIBC_TUNABLES: Deno.env.get("GLIBC_TUNABLES") ?? "glibc.malloc.hugetlb=1" };

/** Run one job, its stdout and stderr into `log`; its exit code. */
async function runJob(job: UnitJob, log: string): Promise<number> {
  const out = await Deno.open(log, { write: true, create: true, truncate: true });
  const err = await Deno.open(log, { append: true });
  const child = new Deno.Command(Deno.execPath(), {
    args: [...TEST, ...job.paths],
    env: { ...TUNING, ...job.env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await Promise.all([child.stdout.pipeTo(out.writable), child.stderr.pipeTo(err.writable)]);
  return (await child.status).code;
}

if (import.meta.main) {
  const given = Deno.env.get("EXECRET_TEST_SLOTS") ?? "3";
  const slots = Number(given);
  if (!(Number.isInteger(slots) && slots >= 1)) {
    console.error(`EXECRET_TEST_SLOTS: expected a whole number ≥ 1, got "${given}"`);
    Deno.exit(2);
  }
  await Deno.mkdir("out", { recursive: true });
  const logOf = (job: UnitJob) => `out/test-${job.name}.log`;
  const t0 = performance.now();
  const codes = await runJobs(UNIT_JOBS, slots, async (job) => {
    const start = performance.now();
    const code = await runJob(job, logOf(job));
    const took = ((performance.now() - start) / 1000).toFixed(0);
    const at = ((performance.now() - t0) / 1000).toFixed(0);
    console.error(
      `unit: ${job.name} ${code === 0 ? "passed" : "FAILED"} in ${took} s ` +
        `(${at} s in, ${logOf(job)})`,
    );
    return code;
  }, (job) => job.solo === true);
  // The logs whole, in the jobs' order (CI adds up their "N passed" lines);
  // streamed, since one write to a pipe may take only part of a log.
  for (const job of UNIT_JOBS) {
    const log = await Deno.open(logOf(job));
    await log.readable.pipeTo(Deno.stdout.writable, { preventClose: true });
  }
  const failed = UNIT_JOBS.filter((_, i) => codes[i] !== 0);
  const took = ((performance.now() - t0) / 1000).toFixed(0);
  console.error(
    failed.length === 0
      ? `unit: all ${UNIT_JOBS.length} jobs passed in ${took} s`
      : `unit: FAILED: ${failed.map((j) => j.name).join(", ")} (logs: ${
        failed.map(logOf).join(" ")
      })`,
  );
  Deno.exit(failed.length === 0 ? 0 : 1);
}
