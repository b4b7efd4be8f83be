import { Buffer } from "node:buffer";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  asOutcome,
  CRASH,
  type Outcome,
  outcomesFromWire,
  TAMPER,
  type TestOutcome,
} from "./outcome.ts";
import type { Slot, SlotEvents, SlotFactory, WireJob } from "./slot.ts";
import { startDeadline, watchChild } from "../io/child_watchdog.ts";
import { BLOCKED_SHARE } from "../io/watchdog.ts";
import { driverSource } from "./driver_source.ts";
import { WALL_BACKSTOP_FACTOR } from "./pyodide_slots.ts";

/** How native workers are started on this machine. */
export interface NativeRuntime {
  /** e.g. "cpython-3.11.7+netns" (own network namespace) or "cpython-3.11.7+audit". */
  runtime: string;
  python: string;
  /** Command prefix that isolates the network, or [] when the machine does not allow it. */
  wrapper: string[];
}

async function output(cmd: string, args: string[]): Promise<string | null> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

let detected: Promise<NativeRuntime> | undefined;

/**
 * Find python3 and whether a worker can get its own (empty) network namespace:
 * `unshare -n` as root, `unshare -rn` through a user namespace otherwise. When
 * neither works the audit hook is the only network guard, and the runtime
 * string says so.
 */
export function nativeRuntime(): Promise<NativeRuntime> {
  detected ??= (async () => {
    const info = await output("python3", [
      "-I",
      "-c",
      "import sys, platform; print(sys.executable); print(platform.python_version())",
    ]);
    if (!info) throw new Error("native runtime: python3 not found on PATH");
    const [python, version] = info.split("\n");
    for (const wrapper of [["unshare", "-n"], ["unshare", "-rn"]]) {
      // The probe must fail to reach anything: only a loopback that is down.
      const probe = await output(wrapper[0], [
        ...wrapper.slice(1),
        python,
        "-I",
        "-c",
        "import socket\ntry:\n socket.create_connection(('127.0.0.1', 9), 0.2)\nexcept OSError as e: print(e.errno)",
      ]);
      if (probe !== null && probe !== "") {
        return { runtime: `cpython-${version}+netns`, python, wrapper };
      }
    }
    return { runtime: `cpython-${version}+audit`, python, wrapper: [] };
  })();
  return detected;
}

/** Options of {@link nativeSlotFactory}. */
export interface NativeSlotOptions {
  native: NativeRuntime;
  timeoutMs: number;
  /** RLIMIT_AS of each worker (default 1 GiB). */
  memoryBytes?: number;
}

interface Line {
  ready?: string;
  id?: number;
  r?: unknown[][];
  next?: number;
  o?: unknown;
  ms?: number;
  cpu?: number;
  tamper?: boolean;
  batch?: "done" | "retire" | "rerun";
  ids?: number[];
}

/**
 * A line of the worker's, if it carries the worker's key: `<json>\t<HMAC>`
 * with the HMAC-SHA256 of the JSON under `key`. The code under test shares
 * the worker's process and can write to the pipe too, but it cannot read
 * the key (see driver.py), so a line without it is none of the harness's.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { createHmac } from "node:crypto";
 * import { unsealLine } from "./native_slots.ts";
 * const key = new Uint8Array(32).fill(7);
 * const text = '{"id": 1}';
 * const mac = createHmac("sha256", key).update(text).digest("hex");
 * deepStrictEqual(unsealLine(`${text}\t${mac}`, key), { id: 1 });
 * deepStrictEqual(unsealLine(`{"id": 2}\t${mac}`, key), null);
 * deepStrictEqual(unsealLine(text, key), null);
 * ```
 */
export function unsealLine(line: string, key: Uint8Array): Record<string, unknown> | null {
  const tab = line.lastIndexOf("\t");
  if (tab < 0) return null;
  const text = line.slice(0, tab);
  const mac = Buffer.from(line.slice(tab + 1), "hex");
  const want = createHmac("sha256", key).update(text).digest();
  if (mac.length !== want.length || !timingSafeEqual(mac, want)) return null;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Slots running long-lived `python3 -c <driver>` processes (driver_source.ts) fed JSON lines. The
 * driver's own timer (setitimer) is the soft timeout; a worker that does not
 * answer within the job's budget is killed, and the job it hung in is re-run
 * carefully (progress after every phase) to place the hang on one test.
 *
 * The verdicts come from this side: each slot gives its worker a fresh key
 * and takes only lines sealed with it (`unsealLine`). A batch's results are
 * held until the worker's line for the batch: `done` delivers them;
 * `retire` (a job tampered, its outcomes say so, the jobs after it never
 * started) and `rerun` (the batch left a module changed, no job known to
 * have done it: each runs again alone) end the worker. Any other line on
 * its pipe is forged: the batch's jobs run again alone, or the job gets
 * `ERROR:Tamper` when it was alone.
 */
export function nativeSlotFactory(options: NativeSlotOptions): SlotFactory {
  const { native, timeoutMs } = options;
  const hard = timeoutMs + Math.max(250, timeoutMs);
  const tick = Math.max(5, Math.min(50, Math.floor(timeoutMs / 10)));
  const argv = [
    ...native.wrapper,
    native.python,
    "-I",
    "-S",
    "-B",
    // The driver's files joined (driver_source.ts): one program, as Pyodide runs it.
    "-c",
    driverSource(),
    String(timeoutMs / 1000),
    String(options.memoryBytes ?? 1 << 30),
    String(WALL_BACKSTOP_FACTOR),
    String(BLOCKED_SHARE),
  ];
  return async (events: SlotEvents): Promise<Slot> => {
    const key = new Uint8Array(randomBytes(32));
    let alive = true;
    let started = false;
    /** The batch's jobs not yet answered, in order; the first is running. */
    let inflight: WireJob[] = [];
    /** The batch's answered jobs, held until the batch's own line. */
    let held: { id: number; outcomes: TestOutcome[] }[] = [];
    let batchIds: number[] = [];
    let careful = false;
    let phase = -1;
    let partial: TestOutcome[] = [];
    let onReady: ((ok: boolean) => void) | undefined;
    const ready = new Promise<boolean>((resolve) => (onReady = resolve));

    const stop = () => {
      alive = false;
      child.kill();
    };

    const die = (outcome: Outcome) => {
      if (!alive) return;
      stop();
      if (!started) return;
      const job = inflight[0];
      const ms = child.silentMs();
      const cpuMs = child.usedMs();
      // Held results are lost with the worker: their jobs run again.
      if (!job || (careful && phase === -2)) {
        events.dead({ id: null, phase: null, partial: [], outcome, ms, cpuMs });
      } else {
        events.dead({
          id: job.id,
          phase: careful ? phase : null,
          // Phase -3, the job's cleanup: every test gets the death's outcome.
          partial: careful && phase !== -3 ? partial : [],
          outcome,
          ms,
          cpuMs,
        });
      }
    };

    /** The batch ends without results: its jobs run again alone, or the one job tampered. */
    const forged = () => {
      if (!alive) return;
      stop();
      if (batchIds.length === 1) {
        const job = inflight[0] ?? { id: batchIds[0], tests: [] as string[], start: 0 };
        const alone = held.find((h) => h.id === batchIds[0]);
        const n = alone ? alone.outcomes.length : job.tests.length - job.start;
        events.result(batchIds[0], Array.from({ length: n }, () => ({ outcome: TAMPER, ms: 0 })));
      } else if (batchIds.length > 0) {
        events.rerun?.(batchIds);
      }
      events.idle(0, true);
    };

    // The worker's CPU time, as its own timer counts: a worker waiting for
    // a core is not taken for a hung one. One blocked (not computing) meets
    // the wall backstop, past the driver's own.
    const budget = () => {
      const job = inflight[0];
      if (!job) return null;
      return careful ? hard : (job.tests.length - job.start + 1) * hard;
    };
    const wallBudget = () => {
      const cpu = budget();
      return cpu === null ? null : WALL_BACKSTOP_FACTOR * cpu;
    };
    const workerCpuMs = () => child.cpuSeconds() * 1000;

    const endBatch = (line: Line) => {
      child.disarm();
      if (line.batch === "rerun") {
        stop();
        events.rerun?.((line.ids ?? []).filter((id) => batchIds.includes(id)));
        events.idle(0, true);
        return;
      }
      const results = held;
      held = [];
      inflight = [];
      batchIds = [];
      for (const r of results) {
        events.result(r.id, r.outcomes);
        if (!alive) return;
      }
      if (line.batch === "retire") {
        stop();
        events.idle(0, true);
      } else {
        events.idle(0);
      }
    };

    const onLine = (text: string) => {
      const line = unsealLine(text, key) as Line | null;
      if (line === null) return forged();
      if (line.ready) {
        onReady?.(true);
        return;
      }
      child.heartbeat();
      if (line.batch) return endBatch(line);
      if (line.tamper === true && typeof line.id === "number") {
        // The one job of its batch left a module changed: its outcomes say so.
        const h = held.find((r) => r.id === line.id);
        if (h) h.outcomes = h.outcomes.map((o) => ({ ...o, outcome: TAMPER }));
        return;
      }
      const job = inflight[0];
      if (!job || line.id !== job.id) return forged();
      if (line.r) {
        held.push({ id: job.id, outcomes: outcomesFromWire(line.r) });
        inflight.shift();
        phase = -1;
        partial = [];
      } else if (line.next !== undefined) {
        if (phase >= 0) {
          partial.push({
            outcome: asOutcome(line.o),
            ms: Number(line.ms) || 0,
            cpuMs: Number(line.cpu) || 0,
          });
        }
        phase = line.next;
      }
    };

    const child = watchChild({
      command: argv[0],
      args: argv.slice(1),
      env: { LC_ALL: "C.UTF-8" },
      onLine: (text) => {
        if (alive) onLine(text);
      },
    });
    // Lines the worker wrote before it died say how far it got: the watchdog reads them first.
    child.exited.then(() => {
      onReady?.(false);
      die(CRASH);
    });
    child.writeLine(JSON.stringify({ key: Buffer.from(key).toString("hex") }));

    const ok = await startDeadline(ready, 30_000, false);
    onReady = undefined;
    if (!ok) {
      alive = false;
      child.kill();
      throw new Error("native worker did not start");
    }

    started = true;
    return {
      cpuSeconds: () => child.cpuSeconds(),
      send(jobs: WireJob[]) {
        if (!alive) throw new Error("send to a dead native worker");
        inflight = [...jobs];
        held = [];
        batchIds = jobs.map((j) => j.id);
        careful = jobs.some((j) => j.careful);
        phase = -1;
        partial = [];
        child.heartbeat();
        child.arm({
          tickMs: tick,
          budgetMs: budget,
          clockMs: workerCpuMs,
          wallMs: wallBudget,
          onExpired: () => die("TIMEOUT"),
        });
        const wire = jobs.map((j) => ({
          id: j.id,
          setup: j.setup,
          code: j.code,
          tests: j.tests,
          start: j.start,
          stop: j.stopAtTimeout,
        }));
        child.writeLine(JSON.stringify({ careful, jobs: wire })).then((written) => {
          if (!written) die(CRASH);
        });
      },
      kill() {
        alive = false;
        child.kill();
      },
    };
  };
}
