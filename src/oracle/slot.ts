/**
 * What a worker pool asks of a slot (one worker, of either runtime): the jobs
 * it sends, the events it hears back. The pool schedules; the slots
 * (pyodide_slots.ts, pyodide_process.ts, native_slots.ts) run.
 *
 * @module
 */
import type { Outcome, TestOutcome } from "./outcome.ts";

/** A job as sent to a worker: which tests to run, from which index. */
export interface WireJob {
  id: number;
  setup: string;
  code: string;
  tests: string[];
  /** First test index to run (after a kill, the tests before it are already known). */
  start: number;
  /** Report progress after every phase (after a death the worker could not place on a phase). */
  careful: boolean;
  /** Stop at the first TIMEOUT; the tests after it are NOT_RUN (see `Job.stopAtTimeout`). */
  stopAtTimeout: boolean;
  /**
   * Sent alone, to a worker whose earlier batches all left it clean: a batch
   * this job was in left a shared namespace changed and no job of it was
   * found to have done it, so each runs again this way (see `SlotEvents.rerun`).
   */
  isolated?: boolean;
}

/** What a slot knows when its worker died or was killed in the middle of a job. */
export interface DeathReport {
  /** The job in progress, or null when the worker died between jobs. */
  id: number | null;
  /**
   * -1 while loading setup + code; a test index; -3 in the job's cleanup
   * after its last test (the snippet's finalizers: every test is charged);
   * null when unknown.
   */
  phase: number | null;
  /** Outcomes of the tests of that job finished before the death, from `start` on. */
  partial: TestOutcome[];
  /** TIMEOUT when killed for time, ERROR:Crash when the worker died on its own. */
  outcome: Outcome;
  /** Wall ms since the worker was last heard of. */
  ms: number;
  /** CPU ms its process used since then, when measured. */
  cpuMs?: number;
  /** Why the worker died, when known (for diagnosis). */
  detail?: string;
}

/** Callbacks a slot uses to report to its pool. */
export interface SlotEvents {
  result(id: number, outcomes: TestOutcome[]): void;
  /**
   * The batch is done; `memoryBytes` is the worker's current footprint when
   * known. `retire`: the worker will run no other job (a job of the batch
   * tampered, or changed what later jobs would see; the slot has stopped
   * it); the batch's unanswered jobs never started and go back to the queue.
   */
  idle(memoryBytes: number, retire?: boolean): void;
  /**
   * These jobs' results are void: a shared namespace changed during their
   * batch and the worker cannot tell which job changed it. Each runs again
   * alone (`WireJob.isolated`); an `idle` with `retire` follows.
   */
  rerun?(ids: number[]): void;
  /** The worker is gone (the slot already terminated it); another starts once there is work. */
  dead(report: DeathReport): void;
  /**
   * The test running now has run for long (`true`), or that test ended
   * (`false`). Slots that can see single tests report this; see
   * {@link PoolOptions.spares}.
   */
  stalled?(on: boolean): void;
}

/** One worker as the pool sees it. */
export interface Slot {
  send(jobs: WireJob[]): void;
  kill(): void;
  /**
   * Let the job running now finish and start no more of the batch; returns
   * the ids of the jobs that will not start (the pool queues them again).
   */
  cut?(): number[] | Promise<number[]>;
  /** CPU seconds its worker process used so far, when it is a separate process. */
  cpuSeconds?(): number;
  /**
   * After its worker retired or was recycled (and only then), start a fresh
   * worker in the same process and report to `events` from now on; resolves
   * once it is ready. Cheaper than a new process where the process keeps
   * what every worker needs (the Pyodide host: its compiled wasm). Rejects
   * if it cannot; the pool then kills it and starts a new slot.
   */
  renew?(events: SlotEvents): Promise<Slot>;
}

/** Starts a worker; resolves once it is ready for jobs. */
export type SlotFactory = (events: SlotEvents) => Promise<Slot>;
