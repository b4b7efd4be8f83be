/**
 * The per-test limit of a Pyodide worker (pyodide_worker.ts), counted in the
 * CPU time of the worker's thread: the running phase's clock, and the signal
 * buffer CPython reads, which interrupts a phase once it has used more than
 * its limit. A phase is not charged for waiting for a core, so whether it
 * runs out does not depend on the machine's load.
 *
 * @module
 */
import process from "node:process";

// How often, at most, the worker reads its thread's CPU time: a read costs
// ~36 us (process.threadCpuUsage), as much as a short test, and CPython asks
// for signals far more often than this.
const CPU_LOOK_MS = 5;

/** This thread's CPU time in ms (the kernel counts it in ticks: 10 ms here). */
function threadCpuMs(): number {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
}

/** A worker's phase clock (see {@link phaseClock}). */
export interface PhaseClock {
  /** What CPython reads as its pending signal (Pyodide's `Py_EmscriptenSignalBuffer`). */
  signals: { 0: number };
  /** Start timing a phase on this thread's CPU clock. */
  start(): void;
  /**
   * Stop timing the phase: its CPU time in ms (null for a phase too short to
   * be read, under `look` ms of wall time), and whether it passed the limit
   * (interrupted for it, or done after it: over the limit either way).
   */
  end(): { cpu: number | null; over: boolean };
}

/**
 * The clock of a worker whose main thread writes its own interrupts (a
 * wall-clock backstop) into `interrupt`, with `limitMs` of CPU time per phase
 * and a repeat every `repeatMs` past it; `now` is the worker's
 * `performance.now`, captured before any snippet ran.
 *
 * Its `signals` answer SIGINT (2) once the running phase has used more than
 * `limitMs` of this thread's CPU time, and again every `repeatMs` after that,
 * so a bare `except:` that swallows one KeyboardInterrupt meets the next (as
 * often as the main thread repeated its own interrupt when it timed phases);
 * else whatever the main thread put in the interrupt buffer. CPython reads
 * them about every 50 checks of its eval breaker.
 *
 * Reading the thread's CPU time costs as much as a short test, so the clock
 * is read at most once every `look` ms of wall time (5 ms, or a quarter of
 * the limit if less): a phase starts from the last reading when it is that
 * recent (so it may be charged up to `look` ms of the CPU time before it:
 * a TIMEOUT at most that early), a running phase is read every `look` ms,
 * and a phase shorter than `look` is not read at all (it cannot have used
 * its limit). Every bound is in CPU time, so none of it depends on the
 * machine's load.
 */
export function phaseClock(
  interrupt: Int32Array,
  now: () => number,
  limitMs: number,
  repeatMs: number,
): PhaseClock {
  const look = Math.max(1, Math.min(CPU_LOOK_MS, limitMs / 4));
  // The last reading of the thread's CPU time, and when (wall) it was taken.
  let lastCpu = 0;
  let lastWall = -Infinity;
  const read = (t: number) => {
    lastCpu = threadCpuMs();
    lastWall = t;
    return lastCpu;
  };
  const recent = (t: number) => (t - lastWall <= look ? lastCpu : read(t));
  // The running phase: its CPU time and wall time at the start, whether it
  // passed the limit, when it is next read and next interrupted again.
  // `timing` is false between phases, where the harness's own Python runs.
  let phaseCpu0 = 0;
  let phaseWall0 = 0;
  let over = false;
  let timing = false;
  let nextLook = 0;
  let nextFire = 0;
  const signals = {
    get 0(): number {
      if (timing) {
        const t = now();
        if (!over && t >= nextLook) {
          nextLook = t + look;
          over = read(t) - phaseCpu0 > limitMs;
        }
        if (over && t >= nextFire) {
          nextFire = t + repeatMs;
          return 2;
        }
      }
      return Atomics.load(interrupt, 0);
    },
    set 0(value: number) {
      // CPython clears the signal once it has read it.
      if (value === 0) Atomics.store(interrupt, 0, 0);
    },
  };
  return {
    signals,
    start() {
      const t = now();
      over = false;
      nextFire = 0;
      phaseWall0 = t;
      phaseCpu0 = recent(t);
      nextLook = t + look;
      timing = true;
    },
    end() {
      timing = false;
      const t = now();
      if (!over && t - phaseWall0 < look) return { cpu: null, over: false };
      const cpu = recent(t) - phaseCpu0;
      const passed = over || cpu > limitMs;
      over = false;
      return { cpu, over: passed };
    },
  };
}
