import process from "node:process";
import { fileURLToPath as fromFileUrl } from "node:url";
import { pinnedVersion } from "../io/pinned_version.ts";
import { driverSource } from "./driver_source.ts";
import { asOutcome, CRASH, type Outcome, outcomesFromWire, type TestOutcome } from "./outcome.ts";
import { type Deadline, pastWallBackstop, watchWorker } from "../io/watchdog.ts";
import type { DeathReport, Slot, SlotEvents, SlotFactory, WireJob } from "./slot.ts";

// Layout of the shared control block; must match pyodide_worker.ts.
const SEQ = 0, JOB = 1, PHASE = 2, INTR = 3, TEXT_LEN = 4, NEXT = 5, TEXT_OFFSET = 32;
const TEXT_BYTES = 256 * 1024;

/** Pyodide's version as deno.json pins it (part of every cache key). */
export const PYODIDE_VERSION = pinnedVersion("pyodide");

/** The folder holding Pyodide's files: the only thing its workers may read. */
export function pyodideDir(): string {
  return Deno.realPathSync(PYODIDE_LINK) + "/";
}

/** Where node_modules links Pyodide's folder (reading the link needs its own permission). */
export const PYODIDE_LINK = fromFileUrl(new URL("../../node_modules/pyodide/", import.meta.url));

const WORKER_URL = new URL("./pyodide_worker.ts", import.meta.url);

/**
 * The worker's own modules besides its entry (the C API, the per-phase CPU
 * clock): the worker loads them itself, under the worker's permissions.
 */
export const WORKER_MODULES = ["./pyodide_capi.ts", "./phase_clock.ts"].map((m) =>
  fromFileUrl(new URL(m, import.meta.url))
);

/**
 * Options of a module worker whose permissions deny everything but reading
 * `dir` (Pyodide's own files) and the worker's own modules; needs
 * --unstable-worker-options.
 */
export function lockedDownWorker(dir: string): WorkerOptions {
  const permissions = {
    read: [dir, ...WORKER_MODULES],
    write: false,
    net: false,
    env: false,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  };
  return { type: "module", deno: { permissions } } as WorkerOptions;
}

function newWorker(dir: string): Worker {
  return new Worker(WORKER_URL, lockedDownWorker(dir));
}

interface Message {
  type: string;
  token?: string;
  [key: string]: unknown;
}

function waitFor(worker: Worker, token: string, type: string, ms: number): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Pyodide worker: no ${type} in ${ms} ms`)), ms);
    const fail = (e: Error) => {
      clearTimeout(timer);
      worker.onmessage = null;
      worker.onerror = null;
      reject(e);
    };
    worker.onmessage = (e) => {
      const msg = e.data as Message;
      if (msg.type === "failed") fail(new Error(`Pyodide worker failed: ${msg.error}`));
      else if (msg.token === token && msg.type === type) {
        clearTimeout(timer);
        worker.onmessage = null;
        worker.onerror = null;
        resolve(msg);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      fail(new Error(`Pyodide worker error: ${e.message}`));
    };
  });
}

/**
 * Load Pyodide once and take a memory snapshot of the loaded interpreter with
 * the driver defined, so every worker (and every respawn) starts in ~0.3 s
 * instead of a multi-second cold load.
 */
export async function makeSnapshot(): Promise<Uint8Array> {
  const dir = pyodideDir();
  const worker = newWorker(dir);
  const token = crypto.randomUUID();
  try {
    const ctrl = new SharedArrayBuffer(TEXT_OFFSET * 4 + TEXT_BYTES);
    const interrupt = new SharedArrayBuffer(4);
    const reply = waitFor(worker, token, "snapshot", 120_000);
    worker.postMessage({
      type: "init",
      token,
      indexURL: dir,
      driver: driverSource(),
      ctrl,
      interrupt,
      makeSnapshot: true,
    });
    return (await reply).bytes as Uint8Array;
  } finally {
    worker.terminate();
  }
}

/** Options of {@link pyodideSlotFactory}. */
export interface PyodideSlotOptions {
  snapshot: Uint8Array;
  timeoutMs: number;
}

/** How often a slot's watcher looks at its worker, for a per-test timeout. */
function watchTickMs(timeoutMs: number): number {
  return Math.max(5, Math.min(50, Math.floor(timeoutMs / 10)));
}

/**
 * After how long a running test is reported stalled, for a per-test timeout:
 * a test this slow is most likely a loop waiting out its timeout.
 */
export function stallAfterMs(timeoutMs: number): number {
  return Math.max(watchTickMs(timeoutMs), Math.min(250, timeoutMs / 4));
}

/**
 * How seldom, at most, the driver tells the main thread a phase began outside
 * careful batches: a phase may be interrupted this much past its timeout.
 */
export function reportGapMs(timeoutMs: number): number {
  return Math.max(1, Math.min(20, Math.floor(timeoutMs / 4)));
}

/**
 * How long a phase the main thread last heard of may run, outside careful
 * batches, before its worker is terminated: the timeout, a grace for the
 * soft interrupt, and the report gap. A job's budget is this per phase, and a
 * Pyodide host process's backstop builds on it too.
 */
export function killAfterMs(timeoutMs: number): number {
  return timeoutMs + Math.max(250, timeoutMs) + reportGapMs(timeoutMs);
}

/**
 * How many times its CPU limit a phase may last in wall-clock time, while
 * using almost no CPU time, before the watcher interrupts it (and kills its
 * worker at this many times the kill limit): the backstop for a phase that
 * is blocked rather than computing, which its CPU clock would never stop
 * (see `BLOCKED_SHARE` in src/io/watchdog.ts). A phase that computes, however
 * starved of a core, meets its CPU limit instead.
 */
export const WALL_BACKSTOP_FACTOR = 10;

/** CPU time this process has used, in ms (user + system, every thread). */
export function processCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/**
 * Slots running Pyodide workers, one to a process as `pyodide_host.ts` runs
 * them. Each worker times its own phases (load or one test) on its thread's
 * CPU clock and interrupts one past the timeout (see `pyodide_worker.ts`).
 * The main thread watches each worker's shared control block: a phase still
 * running after a grace period of the process's CPU time (a hang in C code,
 * where no interrupt reaches), or a job past its whole budget, gets its
 * worker terminated (hard); a phase silent for {@link WALL_BACKSTOP_FACTOR}
 * times the timeout in wall time gets a SIGINT through the interrupt buffer,
 * and its worker is terminated at that many times the kill limit.
 * Outside careful batches the worker reports phases only every
 * {@link reportGapMs} (see driver.py), so the watcher allows that much more,
 * and a death there says which job, not which phase: the pool runs the job
 * again careful, where the phase that hangs again is known to have hung once
 * and gets a short grace (past the timeout its outcome is TIMEOUT whenever it
 * is stopped; only its worker's life is at stake).
 */
export function pyodideSlotFactory(options: PyodideSlotOptions): SlotFactory {
  const dir = pyodideDir();
  const soft = options.timeoutMs;
  const hard = killAfterMs(options.timeoutMs);
  const tick = watchTickMs(options.timeoutMs);
  const stall = stallAfterMs(options.timeoutMs);
  const gap = reportGapMs(options.timeoutMs);
  // A phase known to have hung once gets a shorter grace; still a margin
  // over the worker's own CPU limit, since the process's clock also counts
  // V8's threads (busy compiling in a fresh worker, which a careful rerun is).
  const hardCareful = soft + Math.max(250, soft / 2) + 2 * tick;
  const wallSoft = WALL_BACKSTOP_FACTOR * soft;
  return async (events: SlotEvents): Promise<Slot> => {
    const worker = newWorker(dir);
    const token = crypto.randomUUID();
    const ctrlBuffer = new SharedArrayBuffer(TEXT_OFFSET * 4 + TEXT_BYTES);
    const ctrl = new Int32Array(ctrlBuffer);
    const text = new Uint8Array(ctrlBuffer, TEXT_OFFSET * 4);
    const interruptBuffer = new SharedArrayBuffer(4);
    const interrupt = new Int32Array(interruptBuffer);
    const ready = waitFor(worker, token, "ready", 60_000);
    worker.postMessage({
      type: "init",
      token,
      indexURL: dir,
      ctrl: ctrlBuffer,
      interrupt: interruptBuffer,
      snapshot: options.snapshot,
      gapMs: gap,
      limitMs: soft,
      repeatMs: tick,
    });
    try {
      await ready;
    } catch (e) {
      worker.terminate();
      throw e;
    }

    const dog = watchWorker(worker);
    let alive = true;
    let lastSeq = -1;
    let lastJob = 0;
    let jobCpuStart = 0;
    let jobBudget = 0;
    let stalled = false;
    let careful = false;
    let batchIds: number[] = [];
    const budgets = new Map<number, number>();

    const partial = (): TestOutcome[] => {
      const used = Atomics.load(ctrl, TEXT_LEN);
      const lines = new TextDecoder().decode(text.slice(0, used)).split("\n");
      return lines.filter((l) => l.length > 0).map((l) => {
        const [o, ms, cpu] = l.split("\t");
        const outcome: TestOutcome = { outcome: asOutcome(o), ms: Number(ms) || 0 };
        // Empty: a phase too short for the worker to read its CPU time.
        if (cpu) outcome.cpuMs = Number(cpu) || 0;
        return outcome;
      });
    };

    /** `at` is where the worker itself says it failed; else the control block tells. */
    const die = (
      outcome: Outcome,
      ms: number,
      detail?: string,
      at?: { id: number; phase: number },
    ) => {
      if (!alive) return;
      alive = false;
      dog.disarm();
      const id = at?.id ?? Atomics.load(ctrl, JOB);
      const phase = at?.phase ?? Atomics.load(ctrl, PHASE);
      // Phase -2: the job had finished, its result may be in flight; run it
      // again. Phase -3: it died in the job's cleanup (the snippet's
      // finalizers), which charges every test of the job.
      const inJob = id > 0 && phase !== -2;
      const report: DeathReport = {
        id: inJob ? id : null,
        // Outside careful batches the phase last reported may have ended since.
        phase: careful ? phase : null,
        partial: inJob && careful && phase !== -3 ? partial() : [],
        outcome,
        ms,
        cpuMs: dog.usedMs(),
        detail,
      };
      dog.kill();
      events.dead(report);
    };

    // The worker's progress is in the control block: a new phase (SEQ) is a
    // heartbeat, a new job (JOB) starts the job's budget. Budgets count this
    // process's CPU time (its worker's, mostly), not wall time.
    const deadline: Deadline = {
      tickMs: tick,
      clockMs: processCpuMs,
      poll() {
        const seq = Atomics.load(ctrl, SEQ);
        const job = Atomics.load(ctrl, JOB);
        if (job !== lastJob) {
          lastJob = job;
          jobCpuStart = processCpuMs();
          jobBudget = budgets.get(job) ?? hard;
        }
        if (seq !== lastSeq) {
          lastSeq = seq;
          dog.heartbeat();
          if (stalled) {
            stalled = false;
            events.stalled?.(false);
          }
        } else if (job !== 0 && dog.silentMs() > stall && !stalled) {
          stalled = true;
          events.stalled?.(true);
        }
      },
      // The phase's limit, or less when the job's whole budget runs out first.
      budgetMs: () =>
        lastJob === 0 ? null : Math.min(
          careful ? hardCareful : hard,
          dog.usedMs() + jobBudget - (processCpuMs() - jobCpuStart),
        ),
      wallMs: () => lastJob === 0 ? null : WALL_BACKSTOP_FACTOR * (careful ? hardCareful : hard),
      onExpired: () => die("TIMEOUT", dog.silentMs()),
      // Interrupts only a phase past the wall backstop that is blocked.
      softMs: () =>
        pastWallBackstop(dog.silentMs(), dog.usedMs(), careful ? wallSoft : wallSoft + gap)
          ? 0
          : Infinity,
      // The wall-clock backstop's interrupt. Mark which phase it is for,
      // then fire it only if that phase is still running; repeat each tick
      // so a bare `except:` that swallows one KeyboardInterrupt meets the next.
      onSoft() {
        Atomics.store(ctrl, INTR, lastSeq);
        if (Atomics.load(ctrl, SEQ) === lastSeq) Atomics.store(interrupt, 0, 2);
      },
    };

    /**
     * Hand on the results a message carries (`[[id, [[outcome, ms], ...]], ...]`);
     * false when they are unreadable (the worker died for it).
     */
    const deliver = (jobs: unknown): boolean => {
      const unreadable = () => {
        die(CRASH, 0, "unreadable result");
        return false;
      };
      if (!Array.isArray(jobs)) return unreadable();
      // Job by job, so the results before a bad entry are not lost.
      for (const entry of jobs) {
        if (!Array.isArray(entry) || typeof entry[0] !== "number") return unreadable();
        const id = entry[0];
        budgets.delete(id);
        let outcomes: TestOutcome[];
        try {
          outcomes = outcomesFromWire(entry[1]);
        } catch {
          return unreadable();
        }
        events.result(id, outcomes);
        if (!alive) return false;
      }
      return true;
    };

    worker.onmessage = (e) => {
      const msg = e.data as Message;
      if (msg.token !== token || !alive) return;
      if (msg.type === "results") {
        deliver(msg.done);
      } else if (msg.type === "idle") {
        if (!deliver(msg.done)) return;
        dog.disarm();
        if (msg.retire === true) {
          // A job tampered: this worker runs no other (the pool replaces it).
          alive = false;
          dog.kill();
        }
        events.idle(msg.memory as number, msg.retire === true);
      } else if (msg.type === "fault") {
        const interruptedNow = Atomics.load(ctrl, INTR) === Atomics.load(ctrl, SEQ);
        die(
          interruptedNow ? "TIMEOUT" : CRASH,
          dog.silentMs(),
          `driver fault: ${msg.error}`,
          { id: msg.id as number, phase: msg.phase as number },
        );
      }
    };
    dog.exited.then(({ error }) => {
      if (error !== null) die(CRASH, dog.silentMs(), `worker error: ${error}`);
    });
    // A worker that closes itself (self.close() from a snippet) just goes quiet:
    // the deadline above kills it for time.

    return {
      send(jobs: WireJob[]) {
        if (!alive) throw new Error("send to a dead Pyodide worker");
        for (const j of jobs) budgets.set(j.id, (j.tests.length - j.start + 1) * hard);
        lastSeq = -1;
        lastJob = 0;
        stalled = false;
        careful = jobs.some((j) => j.careful);
        batchIds = jobs.map((j) => j.id);
        Atomics.store(ctrl, NEXT, 0);
        dog.arm(deadline);
        worker.postMessage({
          type: "batch",
          careful,
          jobs: jobs.map((j) => ({
            id: j.id,
            setup: j.setup,
            code: j.code,
            tests: j.tests,
            start: j.start,
            stop: j.stopAtTimeout,
          })),
        });
      },
      cut() {
        // The worker claims each job by moving NEXT from its index to the
        // next; taking NEXT away settles which jobs it has started.
        const claimed = Atomics.exchange(ctrl, NEXT, -1);
        return claimed < 0 ? [] : batchIds.slice(claimed);
      },
      kill() {
        alive = false;
        dog.kill();
      },
    };
  };
}
