/**
 * The core of the kit's one watchdog, for any worker that can go silent: it
 * times the worker's silence against a deadline (with an optional soft stage
 * before it, an interrupt that is repeated until the work moves on), kills
 * the worker once, and reports its end. What "kill" and "end" are is the
 * worker's kind: `child_watchdog.ts` for a child process (SIGKILL, its exit
 * once its last lines are read), {@link watchWorker} here for a Web Worker
 * (`terminate()`, its error event). What a worker's messages mean, and what
 * a death costs its jobs, stays with the slot that runs it.
 *
 * @module
 */

/**
 * A deadline for {@link Watchdog.arm}, checked every `tickMs`.
 *
 * The budget is counted on the worker's own clock when the deadline has one
 * (`clockMs`, its CPU time): a worker that waits for a core on a busy
 * machine is not charged for the wait, so whether it runs out does not
 * depend on what else the machine is doing. `wallMs` is then the backstop for
 * a worker that is blocked rather than computing. The soft stage counts wall
 * time.
 */
export interface Deadline {
  tickMs: number;
  /**
   * First on every tick: look at the work's progress where the worker keeps
   * it (shared memory) and call `heartbeat()` when it moved; a tick that saw
   * it move checks nothing else.
   */
  poll?(): void;
  /**
   * How much of its clock the worker may use without a heartbeat now (wall
   * time when there is no `clockMs`); null: it is not timed now.
   */
  budgetMs(): number | null;
  /** Once, when the budget (or `wallMs`) is passed; the deadline is disarmed first. */
  onExpired(): void;
  /**
   * The worker's clock in ms, e.g. the CPU time its process has used:
   * `budgetMs` counts it from the last heartbeat (or from `arm`), starting
   * at the first look after it: at most a tick late.
   */
  clockMs?(): number;
  /**
   * Wall-clock silence after which the deadline expires if the clock moved
   * by less than {@link BLOCKED_SHARE} of it meanwhile: a worker blocked,
   * not computing, which its clock would never stop. A starved worker still
   * gets its share of a core, so it runs into its budget instead, however
   * busy the machine. null: no backstop.
   */
  wallMs?(): number | null;
  /** Silence after which, on every tick until the budget passes, `onSoft` is called. */
  softMs?(): number;
  /** The soft stage (an interrupt), repeated each tick so one swallowed meets the next. */
  onSoft?(): void;
}

/** A worker under watch; `E` is its end as its kind reports it. */
export interface Watchdog<E> {
  /** Resolves once the worker has ended (killed, or gone of itself). */
  exited: Promise<E>;
  /** Whether {@link Watchdog.kill} was called. */
  readonly killed: boolean;
  /** The worker made progress: its silence starts again. */
  heartbeat(): void;
  /** Milliseconds since the last heartbeat (or the start). */
  silentMs(): number;
  /**
   * How much of the armed deadline's clock the worker used since the last
   * heartbeat or `arm`, whichever came later (wall time without a clock).
   * The clock's count starts at the first look after either (this call or
   * the next tick), not at the beat itself.
   */
  usedMs(): number;
  /** Check `deadline` from now on, replacing any earlier one. */
  arm(deadline: Deadline): void;
  /** Stop checking the deadline. */
  disarm(): void;
  /** Stop the deadline and kill the worker; only the first call kills. */
  kill(): void;
}

/** What a watchdog needs of a worker's kind: how to kill it and when it has ended. */
export interface Watched<E> {
  kill(): void;
  exited: Promise<E>;
}

/**
 * Below this share of wall time on its clock, a silent worker counts as
 * blocked (see {@link Deadline.wallMs}). A worker that waits on nothing
 * uses about none (the watcher's own polling); a starved one on a machine
 * with fifty runnable threads a core still gets twice this.
 */
export const BLOCKED_SHARE = 0.01;

/**
 * Whether a worker silent for `silentMs` of wall time, having used `usedMs`
 * of its clock, is past a wall backstop of `wallMs` (see {@link Deadline.wallMs}).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { pastWallBackstop } from "./watchdog.ts";
 * strictEqual(pastWallBackstop(12_000, 3, 10_000), true); // blocked
 * strictEqual(pastWallBackstop(12_000, 890, 10_000), false); // starved: computing slowly
 * strictEqual(pastWallBackstop(9_000, 0, 10_000), false);
 * strictEqual(pastWallBackstop(12_000, 0, null), false);
 * ```
 */
export function pastWallBackstop(silentMs: number, usedMs: number, wallMs: number | null): boolean {
  return wallMs !== null && silentMs > wallMs && usedMs < BLOCKED_SHARE * silentMs;
}

/**
 * A watchdog over `worker`, silent from now.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { watchdog } from "./watchdog.ts";
 * let end!: (how: string) => void;
 * const dog = watchdog({ kill: () => end("killed"), exited: new Promise((r) => (end = r)) });
 * const seen: string[] = [];
 * await new Promise<void>((resolve) =>
 *   dog.arm({
 *     tickMs: 1,
 *     budgetMs: () => 30,
 *     softMs: () => 10,
 *     onSoft: () => seen.length === 0 && seen.push("soft"),
 *     onExpired: () => {
 *       seen.push("expired");
 *       dog.kill();
 *       dog.kill();
 *       resolve();
 *     },
 *   })
 * );
 * deepStrictEqual([seen, dog.killed, await dog.exited], [["soft", "expired"], true, "killed"]);
 * ```
 */
export function watchdog<E>(worker: Watched<E>): Watchdog<E> {
  let killed = false;
  let last = performance.now();
  let beats = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let clock: (() => number) | undefined;
  let lastClock = 0;
  // A heartbeat does not read the clock, it marks the count as to restart:
  // a worker's CPU time comes from /proc (~17 us of this thread), and a
  // native oracle worker beats once a job, thousands of times a second.
  // The first look after a beat (the next tick's, at the latest) takes the
  // count's start, so the worker may use up to a tick of its clock more
  // than its budget, never less.
  let restart = false;
  const disarm = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const usedMs = () => {
    if (!clock) return performance.now() - last;
    const now = clock();
    if (restart) {
      restart = false;
      lastClock = now;
    }
    return now - lastClock;
  };
  return {
    exited: worker.exited,
    get killed() {
      return killed;
    },
    heartbeat() {
      last = performance.now();
      restart = true;
      beats++;
    },
    silentMs: () => performance.now() - last,
    usedMs,
    arm(deadline) {
      disarm();
      clock = deadline.clockMs?.bind(deadline);
      restart = true;
      timer = setInterval(() => {
        const before = beats;
        deadline.poll?.();
        if (beats !== before) return;
        const budget = deadline.budgetMs();
        if (budget === null) return;
        const silent = performance.now() - last;
        const used = usedMs();
        if (
          used > budget || (clock && pastWallBackstop(silent, used, deadline.wallMs?.() ?? null))
        ) {
          disarm();
          deadline.onExpired();
        } else if (deadline.onSoft && silent > (deadline.softMs?.() ?? Infinity)) {
          deadline.onSoft();
        }
      }, deadline.tickMs);
    },
    disarm,
    kill() {
      disarm();
      if (killed) return;
      killed = true;
      worker.kill();
    },
  };
}

/** A Web Worker's end: the message of the error that ended it, or null when it was terminated. */
export interface WorkerExit {
  error: string | null;
}

/**
 * A watchdog over a Web Worker: kill is `terminate()`; it has ended at its
 * first uncaught error (kept from the console) or when it is killed. A
 * worker that closes itself sends no event: only the deadline notices it.
 * It takes the worker's `onerror`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { watchWorker } from "./watchdog.ts";
 * const url = `data:text/javascript,${encodeURIComponent("self.onmessage = () => {};")}`;
 * const dog = watchWorker(new Worker(url, { type: "module" }));
 * dog.kill();
 * deepStrictEqual([await dog.exited, dog.killed], [{ error: null }, true]);
 * ```
 */
export function watchWorker(worker: Worker): Watchdog<WorkerExit> {
  let end!: (exit: WorkerExit) => void;
  const exited = new Promise<WorkerExit>((resolve) => (end = resolve));
  worker.onerror = (e) => {
    e.preventDefault();
    end({ error: e.message });
  };
  return watchdog({
    kill() {
      worker.terminate();
      end({ error: null });
    },
    exited,
  });
}
