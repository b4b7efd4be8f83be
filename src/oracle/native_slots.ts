import { fileURLToPath as fromFileUrl } from "node:url";
import { asOutcome, CRASH, type Outcome, outcomesFromWire, type TestOutcome } from "./outcome.ts";
import type { Slot, SlotEvents, SlotFactory, WireJob } from "./worker_pool.ts";
import { eachLine, killChild, processCpuSeconds } from "./_child_process.ts";

/** How native workers are started on this machine. */
export interface NativeRuntime {
  /** e.g. "cpython-3.11.7+netns" (own network namespace) or "cpython-3.11.7+audit". */
  runtime: string;
  python: string;
  /** Command prefix that isolates the network, or [] when the machine does not allow it. */
  wrapper: string[];
}

const DRIVER = fromFileUrl(new URL("./driver.py", import.meta.url));

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
  r?: [unknown, unknown][];
  next?: number;
  o?: unknown;
  ms?: number;
}

/**
 * Slots running long-lived `python3 driver.py` processes fed JSON lines. The
 * driver's own timer (setitimer) is the soft timeout; a worker that does not
 * answer within the job's budget is killed, and the job it hung in is re-run
 * carefully (progress after every phase) to place the hang on one test.
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
    DRIVER,
    String(timeoutMs / 1000),
    String(options.memoryBytes ?? 1 << 30),
  ];
  return async (events: SlotEvents): Promise<Slot> => {
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      clearEnv: true,
      env: { LC_ALL: "C.UTF-8" },
    }).spawn();
    const writer = child.stdin.getWriter();
    const encoder = new TextEncoder();
    let alive = true;
    let started = false;
    let inflight: WireJob[] = [];
    let careful = false;
    let phase = -1;
    let partial: TestOutcome[] = [];
    let lastProgress = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    let onReady: ((ok: boolean) => void) | undefined;
    const ready = new Promise<boolean>((resolve) => (onReady = resolve));

    const die = (outcome: Outcome) => {
      if (!alive) return;
      alive = false;
      clearInterval(timer);
      killChild(child);
      if (!started) return;
      const job = inflight[0];
      const ms = performance.now() - lastProgress;
      if (!job || (careful && phase === -2)) {
        events.dead({ id: null, phase: null, partial: [], outcome, ms });
      } else {
        events.dead({
          id: job.id,
          phase: careful ? phase : null,
          partial: careful ? partial : [],
          outcome,
          ms,
        });
      }
    };

    const watch = () => {
      const job = inflight[0];
      if (!job) return;
      const budget = careful ? hard : (job.tests.length - job.start + 1) * hard;
      if (performance.now() - lastProgress > budget) die("TIMEOUT");
    };

    const onLine = (text: string) => {
      let line: Line;
      try {
        line = JSON.parse(text);
      } catch {
        return;
      }
      if (line.ready) {
        onReady?.(true);
        return;
      }
      const job = inflight[0];
      if (!job || line.id !== job.id) return;
      lastProgress = performance.now();
      if (line.r) {
        const outcomes = outcomesFromWire(line.r);
        inflight.shift();
        phase = -1;
        partial = [];
        events.result(job.id, outcomes);
        if (inflight.length === 0 && alive) {
          clearInterval(timer);
          timer = undefined;
          events.idle(0);
        }
      } else if (line.next !== undefined) {
        if (phase >= 0) partial.push({ outcome: asOutcome(line.o), ms: Number(line.ms) || 0 });
        phase = line.next;
      }
    };

    const reading = eachLine(child.stdout, (text) => {
      if (alive) onLine(text);
    }).catch(() => {});
    child.status.then(async () => {
      onReady?.(false);
      // Lines the worker wrote before it died say how far it got: read them first.
      await Promise.race([reading, new Promise((r) => setTimeout(r, 1000))]);
      die(CRASH);
    });

    const startTimer = setTimeout(() => onReady?.(false), 30_000);
    const ok = await ready;
    clearTimeout(startTimer);
    onReady = undefined;
    if (!ok) {
      alive = false;
      killChild(child);
      throw new Error("native worker did not start");
    }

    started = true;
    return {
      cpuSeconds: () => processCpuSeconds(child.pid),
      send(jobs: WireJob[]) {
        if (!alive) throw new Error("send to a dead native worker");
        inflight = [...jobs];
        careful = jobs.some((j) => j.careful);
        phase = -1;
        partial = [];
        lastProgress = performance.now();
        clearInterval(timer);
        timer = setInterval(watch, tick);
        const wire = jobs.map((j) => ({
          id: j.id,
          setup: j.setup,
          code: j.code,
          tests: j.tests,
          start: j.start,
          stop: j.stopAtTimeout,
        }));
        writer.write(encoder.encode(JSON.stringify({ careful, jobs: wire }) + "\n")).catch(() =>
          die(CRASH)
        );
      },
      kill() {
        alive = false;
        clearInterval(timer);
        killChild(child);
      },
    };
  };
}
