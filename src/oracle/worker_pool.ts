import { CRASH, type Job, NOT_RUN, type TestOutcome } from "./outcome.ts";
import { median } from "../common/median.ts";
import type { DeathReport, Slot, SlotEvents, SlotFactory } from "./slot.ts";

interface Pending {
  id: number;
  job: Job;
  start: number;
  careful: boolean;
  isolated: boolean;
  done: TestOutcome[];
  resolve(outcomes: TestOutcome[]): void;
  reject(error: Error): void;
}

interface SlotState {
  slot: Slot | null;
  /** The slot's last worker, retired or recycled, whose process may start the next ({@link Slot.renew}). */
  spent: Slot | null;
  /**
   * Counts the workers that left the slot for good or were set aside
   * (`spent`): events of an earlier count's worker are not this slot's
   * any more (a spent host that crashes before it is renewed, say).
   */
  generation: number;
  busy: Pending[];
  /**
   * A batch was sent and its worker has not said it is idle. Answering every
   * job of a batch does not free the slot: the worker's idle message comes
   * after its last result, and a batch sent in between would be taken for
   * the unanswered rest of the old one and queued a second time.
   */
  open: boolean;
  /** Its worker is starting. With no worker and not starting, the slot is vacant (see `dead`). */
  restarting: boolean;
  /** Its worker is on a test that has run for long, most likely a loop waiting out its timeout. */
  stalled: boolean;
}

/** Counters a pool keeps for reports and tests. */
export interface PoolStats {
  jobs: number;
  kills: number;
  crashes: number;
  recycles: number;
  respawnMs: number[];
  /** The first few reasons workers died for, for diagnosis. */
  deaths: string[];
  /** Spare workers started while others were stalled. */
  spares: number;
  /** Workers retired after a job that tampered or changed shared state. */
  retired: number;
  /** Workers (retired or recycled) replaced in their own process ({@link Slot.renew}). */
  renewed: number;
  /** Jobs run again alone because their batch changed shared state. */
  reruns: number;
}

/** Settings of a {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** Jobs per message to a worker. */
  batchMax: number;
  /** Recycle a worker whose footprint grew past this. */
  memoryLimitBytes: number;
  /**
   * Extra workers the pool may start while some of its workers are stalled.
   * A timeout is wall-clock time, so a worker waiting out a loop's timeout
   * need not hold a core's share of the queue: while it waits, a spare takes
   * its place (so never more than `size` workers run tests that are not
   * stalled), and the stalled worker's unstarted jobs go back to the queue.
   */
  spares?: number;
  /**
   * How long a test reported stalled may still run before its timeout
   * interrupts it. When set, a spare starts only if this pool's workers
   * started in less (the median of their start times so far), or if the
   * queue holds a full batch for every slot the pool may have (`size +
   * spares`). A spare that comes up after the stall has ended only costs its
   * start (a Pyodide worker: ~1 s and ~1.2 CPU-s, more on a busy machine,
   * against 750 ms left of a 1000 ms timeout) unless later stalls find it
   * there: with that much work left they do (the default profile's oracle
   * stage meets ~80 timeouts, often two at once, with thousands of suites
   * queued).
   */
  stallLeftMs?: number;
}

/**
 * Schedules jobs over `size` worker slots (plus spares while some are
 * stalled): batches jobs per message, restarts a slot whose worker died once
 * there is work for it,
 * re-queues the unfinished part of the job it died in, and recycles a worker
 * whose memory grew too far.
 */
export class WorkerPool {
  readonly stats: PoolStats = {
    jobs: 0,
    kills: 0,
    crashes: 0,
    recycles: 0,
    respawnMs: [],
    deaths: [],
    spares: 0,
    retired: 0,
    renewed: 0,
    reruns: 0,
  };
  #queue: Pending[] = [];
  #slots: SlotState[] = [];
  #nextId = 1;
  #closed = false;
  #pumpScheduled = false;

  constructor(
    private readonly factory: SlotFactory,
    private readonly size: number,
    private readonly options: WorkerPoolOptions,
  ) {}

  /** Start every slot (in parallel). */
  async start(): Promise<void> {
    this.#slots = Array.from({ length: this.size }, () => newSlotState());
    await Promise.all(this.#slots.map((s) => this.#spawn(s)));
  }

  /** Queue one snippet's suite; resolves with one outcome per test. */
  run(job: Job): Promise<TestOutcome[]> {
    if (this.#closed) return Promise.reject(new Error("oracle pool is closed"));
    if (job.tests.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.#queue.push({
        id: this.#nextId++,
        job,
        start: 0,
        careful: false,
        isolated: false,
        done: [],
        resolve,
        reject,
      });
      this.#schedulePump();
    });
  }

  /** CPU seconds used by live worker processes (0 for in-process workers). */
  childCpuSeconds(): number {
    return this.#slots.reduce((sum, s) => sum + (s.slot?.cpuSeconds?.() ?? 0), 0);
  }

  /** Terminate every worker; pending jobs reject. */
  close(): void {
    this.#closed = true;
    for (const s of this.#slots) {
      s.slot?.kill();
      s.slot = null;
      s.spent?.kill();
      s.spent = null;
      for (const p of s.busy) p.reject(new Error("oracle pool closed"));
      s.busy = [];
    }
    for (const p of this.#queue) p.reject(new Error("oracle pool closed"));
    this.#queue = [];
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    // A burst of run() calls lands in the queue before the first batch is cut.
    queueMicrotask(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#closed) return;
    // Only `size` batches run at once, not counting stalled ones.
    let room = this.size - this.#slots.filter((s) => s.open && !s.stalled).length;
    const idle = this.#slots.filter((s) => s.slot && !s.restarting && !s.open);
    const takers = Math.min(room, idle.length);
    for (const s of idle) {
      if (this.#queue.length === 0 || room <= 0) break;
      room--;
      const share = Math.ceil(this.#queue.length / takers);
      const n = Math.max(1, Math.min(this.options.batchMax, share));
      const batch: Pending[] = [];
      while (batch.length < n && this.#queue.length > 0) {
        const next = this.#queue[0];
        // A careful job travels alone: it is the one that hung a worker
        // before. So does an isolated one: alone, what it leaves is its own.
        const alone = next.careful || next.isolated;
        if (alone && batch.length > 0) break;
        batch.push(this.#queue.shift()!);
        if (alone) break;
      }
      s.busy = batch;
      s.open = true;
      s.slot!.send(batch.map((p) => ({
        id: p.id,
        setup: p.job.setup,
        code: p.job.code,
        tests: p.job.tests,
        start: p.start,
        careful: p.careful,
        stopAtTimeout: p.job.stopAtTimeout ?? false,
        isolated: p.isolated,
      })));
    }
    this.#startSpares(room);
  }

  /**
   * Start workers for room that neither an idle nor a starting worker will
   * take: first in vacant slots (whose worker died or was recycled), then as
   * spares.
   */
  #startSpares(room: number): void {
    const starting = this.#slots.filter((s) => s.restarting).length;
    let wanted = Math.min(room - starting, this.#queue.length);
    for (const state of this.#slots) {
      if (wanted <= 0) return;
      if (state.slot || state.restarting) continue;
      wanted--;
      this.#spawn(state).catch(() => {});
    }
    const limit = this.size + (this.options.spares ?? 0);
    // A spare started too late for this stall still stays in the pool and
    // takes the next stalled worker's place at once, which pays off only
    // when much work is left: a loop's siblings (other mutants of its task)
    // tend to loop too. No start measured yet (NaN) does not hold one back.
    const left = this.options.stallLeftMs;
    const lateStart = left !== undefined && median(this.stats.respawnMs) >= left;
    if (lateStart && this.#queue.length < this.options.batchMax * limit) return;
    while (wanted-- > 0 && this.#slots.length < limit) {
      const state = newSlotState();
      this.#slots.push(state);
      this.stats.spares++;
      this.#spawn(state, true).catch(() => {
        // A spare that cannot start is simply not there; the pool goes on.
        this.#slots = this.#slots.filter((s) => s !== state);
      });
    }
  }

  async #spawn(state: SlotState, spare = false): Promise<void> {
    state.restarting = true;
    const t0 = performance.now();
    const spent = state.spent;
    state.spent = null;
    for (let attempt = 0;; attempt++) {
      try {
        let slot: Slot | undefined;
        if (spent && attempt === 0) {
          slot = await spent.renew!(this.#events(state)).then(
            (s) => (this.stats.renewed++, s),
            () => (spent.kill(), undefined),
          );
        }
        slot ??= await this.factory(this.#events(state));
        if (this.#closed) {
          slot.kill();
          return;
        }
        state.slot = slot;
        break;
      } catch (e) {
        if (attempt >= 2 || this.#closed) {
          const error = new Error(`oracle worker failed to start: ${(e as Error).message}`);
          if (spare) throw error;
          for (const p of this.#queue) p.reject(error);
          this.#queue = [];
          throw error;
        }
      }
    }
    this.stats.respawnMs.push(performance.now() - t0);
    state.restarting = false;
    this.#schedulePump();
  }

  #events(state: SlotState): SlotEvents {
    const generation = state.generation;
    const stale = () => state.generation !== generation;
    return {
      result: (id, outcomes) => {
        if (stale()) return;
        const i = state.busy.findIndex((p) => p.id === id);
        if (i < 0) return;
        const [p] = state.busy.splice(i, 1);
        this.stats.jobs++;
        p.resolve([...p.done, ...outcomes]);
      },
      idle: (memoryBytes, retire) => {
        if (stale()) return;
        // Jobs a worker never answered (it should not happen, but after a
        // retirement, where they never started) go back to the queue.
        this.#queue.unshift(...state.busy);
        state.busy = [];
        state.open = false;
        state.stalled = false;
        if (retire) this.stats.retired++;
        if ((retire || memoryBytes > this.options.memoryLimitBytes) && !this.#closed) {
          if (!retire) this.stats.recycles++;
          // Its replacement starts in the same process where the slot can.
          if (state.slot?.renew) state.spent = state.slot;
          else state.slot?.kill();
          state.slot = null;
          state.generation++;
        }
        this.#schedulePump();
      },
      rerun: (ids) => {
        if (stale()) return;
        const again = new Set(ids);
        const back = state.busy.filter((p) => again.has(p.id));
        state.busy = state.busy.filter((p) => !again.has(p.id));
        for (const p of back) {
          p.isolated = true;
          p.start = 0;
          p.done = [];
        }
        this.stats.reruns += back.length;
        this.#queue.unshift(...back);
      },
      stalled: (on) => {
        if (stale() || !state.open || state.stalled === on) return;
        state.stalled = on;
        if (!on) return;
        // Jobs the cut left unstarted go back to the queue. An answer that
        // comes after the batch ended finds them already queued by `idle`
        // (ids are never reused, so a later batch's jobs are not touched).
        Promise.resolve(state.slot?.cut?.() ?? []).then((ids) => {
          const unstarted = new Set(ids);
          const back = state.busy.filter((p) => unstarted.has(p.id));
          if (back.length === 0 || this.#closed) return;
          this.#queue.unshift(...back);
          state.busy = state.busy.filter((p) => !unstarted.has(p.id));
          this.#schedulePump();
        });
      },
      dead: (report) => {
        if (this.#closed || stale()) return;
        if (report.outcome === CRASH) this.stats.crashes++;
        else this.stats.kills++;
        if (this.stats.deaths.length < 5) {
          this.stats.deaths.push(
            `${report.outcome} in phase ${report.phase}${
              report.detail ? `: ${report.detail}` : ""
            }`,
          );
        }
        state.slot = null;
        const requeue: Pending[] = [];
        for (const p of state.busy) {
          if (p.id !== report.id) {
            requeue.push(p);
            continue;
          }
          p.done.push(...report.partial);
          const n = p.job.tests.length;
          if (report.phase === null) {
            // It hung somewhere in this job (native, or a Pyodide batch that
            // reports phases only now and then); find where, carefully.
            if (p.careful) {
              while (p.done.length < n) p.done.push(deathOutcome(report));
              this.stats.jobs++;
              p.resolve(p.done);
            } else {
              p.careful = true;
              requeue.push(p);
            }
          } else if (report.phase < 0) {
            while (p.done.length < n) p.done.push(deathOutcome(report));
            this.stats.jobs++;
            p.resolve(p.done);
          } else {
            // Tests before the phase whose results were lost are simply re-run.
            if (p.done.length > report.phase) p.done.length = report.phase;
            if (p.done.length === report.phase) {
              p.done.push(deathOutcome(report));
              if (p.job.stopAtTimeout && report.outcome === "TIMEOUT") {
                while (p.done.length < n) p.done.push({ outcome: NOT_RUN, ms: 0 });
              }
            }
            if (p.done.length >= n) {
              this.stats.jobs++;
              p.resolve(p.done);
            } else {
              p.start = p.done.length;
              requeue.push(p);
            }
          }
        }
        state.busy = [];
        state.open = false;
        state.stalled = false;
        this.#queue.unshift(...requeue);
        // The slot stays vacant until there is work for it (#startSpares): a
        // worker started at once was often never used, as when its
        // predecessor died on a stage's last suite (~1.2 CPU-s to start
        // Pyodide from its snapshot).
        this.#schedulePump();
      },
    };
  }
}

/** The outcome a death gives the test it happened in (CPU ms where the slot measured it). */
function deathOutcome(report: DeathReport): TestOutcome {
  const { outcome, ms, cpuMs } = report;
  return cpuMs === undefined ? { outcome, ms } : { outcome, ms, cpuMs };
}

function newSlotState(): SlotState {
  return {
    slot: null,
    spent: null,
    generation: 0,
    busy: [],
    open: false,
    restarting: true,
    stalled: false,
  };
}
