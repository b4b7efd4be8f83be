import { fileURLToPath as fromFileUrl } from "node:url";
import { CRASH, outcomesFromWire } from "./outcome.ts";
import {
  killAfterMs,
  PYODIDE_LINK,
  pyodideDir,
  WALL_BACKSTOP_FACTOR,
  WORKER_MODULES,
} from "./pyodide_slots.ts";
import type { DeathReport, Slot, SlotEvents, SlotFactory, WireJob } from "./slot.ts";
import { startDeadline, watchChild } from "../io/child_watchdog.ts";
import { childDenoEnv } from "../io/child_env.ts";

const HOST = fromFileUrl(new URL("./pyodide_host.ts", import.meta.url));
// The host starts its worker from this file, which needs reading; the worker itself may not.
const WORKER = fromFileUrl(new URL("./pyodide_worker.ts", import.meta.url));
const CONFIG = fromFileUrl(new URL("../../deno.json", import.meta.url));

/** Options of {@link pyodideProcessSlotFactory}. */
export interface PyodideProcessOptions {
  /** The memory snapshot file every slot starts from. */
  snapshotPath: string;
  timeoutMs: number;
}

interface HostMessage {
  t: string;
  /** Results: `[id, [[outcome, ms], ...]]` per job. */
  r?: [number, unknown[][]][] | DeathReport;
  m?: number;
  /** With `idle`: the worker retired (a job tampered); the host waits for `renew`. */
  x?: boolean;
  on?: boolean;
  ids?: number[];
  error?: string;
}

/**
 * V8 flags of a Pyodide host process. From V8 13.7 (Chrome 137), V8
 * speculatively inlines wasm's indirect calls and deoptimises when a guess
 * misses, and CPython dispatches through indirect calls (type slots). In a
 * Pyodide pool 14 s after its start, V8's background threads (where it
 * compiles) took 28-45% of both cores (`perf record -a`), 11-16% with
 * `--no-wasm-deopt`; with the flag a cold worker's first 2,059 suites ran in
 * 1.5 s instead of 2.3 s and the oracle stage ran 0.3-2.0 s faster in four of
 * four paired runs, while the steady state did not change.
 *
 * `--wasm-sync-tier-up` compiles a hot function's optimised code on the
 * thread that runs it, when it gets hot, instead of on a background thread
 * while the worker goes on in baseline (Liftoff) code. The per-test limit
 * counts the worker thread's CPU time, and baseline code costs about twice
 * as much of it: with background tier-up, a fresh worker's first tests
 * used up to 2.2x the CPU time of later ones when other processes kept the
 * compiler threads from running (a 130 ms loop took 290-310 ms, and one was
 * a TIMEOUT at 300 ms, beside four busy processes), so a test's CPU time
 * depended on the machine's load. With the flag it took 120-150 ms in every
 * worker, loaded or not (2026-12-07; see CONTRIBUTING, "Verdicts and the clock").
 *
 * An older V8 has no such deopts (and may not know the flags, which would
 * stop the host), so gets none.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pyodideV8Flags } from "./pyodide_process.ts";
 * deepStrictEqual(pyodideV8Flags("15.0.245.2-rusty"), [
 *   "--v8-flags=--no-wasm-deopt,--wasm-sync-tier-up",
 * ]);
 * deepStrictEqual(pyodideV8Flags("13.7.152.6"), [
 *   "--v8-flags=--no-wasm-deopt,--wasm-sync-tier-up",
 * ]);
 * deepStrictEqual(pyodideV8Flags("13.6.233.8"), []);
 * deepStrictEqual(pyodideV8Flags("not a version"), []);
 * ```
 */
export function pyodideV8Flags(v8Version: string): string[] {
  const [major, minor] = v8Version.split(".").map((n) => parseInt(n, 10));
  const speculates = major > 13 || (major === 13 && minor >= 7);
  return speculates ? ["--v8-flags=--no-wasm-deopt,--wasm-sync-tier-up"] : [];
}

/**
 * Slots that each run one Pyodide worker inside a process of their own
 * (`pyodide_host.ts`), allowed to read Pyodide's files and the snapshot and
 * nothing else. The host interrupts and kills its worker as the in-process
 * slot does and exits after a death; `kill()` is SIGKILL, so whatever the
 * snippet does, nothing of it outlives its slot.
 */
export function pyodideProcessSlotFactory(options: PyodideProcessOptions): SlotFactory {
  const hard = killAfterMs(options.timeoutMs);
  const args = [
    "run",
    "--quiet",
    "--cached-only",
    "--no-prompt",
    "--unstable-worker-options",
    ...pyodideV8Flags(Deno.version.v8),
    `--config=${CONFIG}`,
    `--allow-read=${
      [pyodideDir(), PYODIDE_LINK, WORKER, ...WORKER_MODULES, options.snapshotPath].join(",")
    }`,
    HOST,
    options.snapshotPath,
    String(options.timeoutMs),
  ];
  return async (first: SlotEvents): Promise<Slot> => {
    // Its pool's callbacks: those of the latest `renew`, the first before it.
    let events = first;
    // Taking jobs: false once retired, while renewing and once dead.
    let alive = true;
    let exited = false;
    let ready: ((error?: string) => void) | undefined;
    let started = new Promise<string | undefined>((resolve) => (ready = resolve));
    let inflight: WireJob[] = [];
    const cuts: ((ids: number[]) => void)[] = [];

    const write = (message: unknown) => {
      child.writeLine(JSON.stringify(message));
    };

    const die = (report: DeathReport) => {
      if (!alive) return;
      alive = false;
      child.kill();
      for (const resolve of cuts.splice(0)) resolve([]);
      events.dead(report);
    };

    const onMessage = (message: HostMessage) => {
      child.heartbeat();
      switch (message.t) {
        case "ready":
          ready?.();
          return;
        case "failed":
          ready?.(message.error ?? "failed");
          return;
        case "results": {
          const done = message.r as [number, unknown[][]][];
          const ids = new Set(done.map(([id]) => id));
          inflight = inflight.filter((j) => !ids.has(j.id));
          for (const [id, raw] of done) {
            events.result(id, outcomesFromWire(raw));
            if (!alive) return;
          }
          return;
        }
        case "idle":
          inflight = [];
          child.disarm();
          // A retired worker's host waits for `renew` (or its end, `kill`).
          if (message.x === true) alive = false;
          events.idle(message.m ?? 0, message.x === true);
          return;
        case "stalled":
          events.stalled?.(message.on ?? false);
          return;
        case "unstarted": {
          const ids = new Set(message.ids ?? []);
          inflight = inflight.filter((j) => !ids.has(j.id));
          cuts.shift()?.(message.ids ?? []);
          return;
        }
        case "dead":
          die(message.r as DeathReport);
          return;
      }
    };

    // The host's stdout carries its messages; its stderr (Pyodide's own
    // reports of a fatal error) is kept short for the death's detail.
    const child = watchChild({
      command: Deno.execPath(),
      args,
      env: childDenoEnv(),
      stderrTail: 600,
      onLine: (line) => {
        let message: HostMessage;
        try {
          message = JSON.parse(line);
        } catch {
          return;
        }
        if (alive || ready) onMessage(message);
      },
    });
    child.exited.then(({ code, stderrTail }) => {
      exited = true;
      ready?.(`host exited with code ${code}: ${stderrTail}`);
      die({
        id: inflight[0]?.id ?? null,
        phase: null,
        partial: [],
        outcome: CRASH,
        ms: child.silentMs(),
        detail: `Pyodide host exited with code ${code}: ${stderrTail.slice(-200)}`,
      });
    });

    /** The host's `ready` for the worker it is starting: undefined, or why it did not come. */
    const readiness = async () => {
      const failure = await startDeadline(started, 60_000, "no ready message in 60 s");
      ready = undefined;
      return failure ?? (exited ? "it exited" : undefined);
    };

    const failure = await readiness();
    if (failure !== undefined) {
      alive = false;
      child.kill();
      throw new Error(`Pyodide host did not start: ${failure}`);
    }

    // A backstop only: the host kills its own worker after at most `hard` ms
    // of its CPU time on one test, so a silence that uses much more than a
    // job's budget means the host hangs. Counted on the host's CPU clock, as
    // the host counts, so a host waiting for a core is not taken for a hung
    // one; a host that uses no CPU at all is stopped by the wall backstop.
    const budget = () => {
      const job = inflight[0];
      return job ? (job.tests.length - job.start + 1) * hard + 5000 : null;
    };
    const wallBudget = () => {
      const cpu = budget();
      return cpu === null ? null : WALL_BACKSTOP_FACTOR * cpu;
    };
    const hostCpuMs = () => child.cpuSeconds() * 1000;
    const silent = () =>
      die({
        id: inflight[0].id,
        phase: null,
        partial: [],
        outcome: "TIMEOUT",
        ms: child.silentMs(),
        detail: "Pyodide host went silent",
      });

    return {
      send(jobs: WireJob[]) {
        if (!alive) throw new Error("send to a dead Pyodide host");
        inflight = [...jobs];
        child.heartbeat();
        child.arm({
          tickMs: 250,
          budgetMs: budget,
          clockMs: hostCpuMs,
          wallMs: wallBudget,
          onExpired: silent,
        });
        write({ send: jobs });
      },
      cut() {
        if (!alive) return Promise.resolve([]);
        const answer = new Promise<number[]>((resolve) => cuts.push(resolve));
        write({ cut: true });
        return answer;
      },
      kill() {
        alive = false;
        for (const resolve of cuts.splice(0)) resolve([]);
        child.kill();
      },
      cpuSeconds: () => child.cpuSeconds(),
      async renew(next: SlotEvents): Promise<Slot> {
        // Only between batches: nothing is in flight, and the old worker is
        // idle (pyodide_host.ts stops it before it starts the next).
        if (exited || inflight.length > 0 || cuts.length > 0) {
          throw new Error("the Pyodide host cannot start another worker now");
        }
        alive = false;
        events = next;
        started = new Promise<string | undefined>((resolve) => (ready = resolve));
        write({ renew: true });
        const failure = await readiness();
        if (failure !== undefined) {
          child.kill();
          throw new Error(`Pyodide host did not renew its worker: ${failure}`);
        }
        alive = true;
        child.heartbeat();
        return this;
      },
    };
  };
}
