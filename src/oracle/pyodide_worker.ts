/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * One Pyodide instance in a Deno worker whose permissions allow reading the
 * Pyodide files and nothing else. Speaks to `pyodide_slots.ts` by messages and
 * a shared control block (see `CTRL` there) the main thread watches for hangs.
 */
import { loadPyodide, type PyodideAPI } from "pyodide";

// Indices into the shared Int32 control block; must match pyodide_slots.ts.
const SEQ = 0, JOB = 1, PHASE = 2, INTR = 3, TEXT_LEN = 4, NEXT = 5, TEXT_OFFSET = 32;

// Captured before any snippet runs: snippets can reach the global scope (via
// run_js), not this module's bindings, so they cannot forge our messages.
const post = self.postMessage.bind(self);
let token = "";
let ctrl: Int32Array;
let text: Uint8Array;
let interrupt: Int32Array;
let py: PyodideAPI;
let run:
  | ((setup: string, code: string, tests: string, start: number, stop: boolean) => string)
  | undefined;
const encoder = new TextEncoder();

// Outcomes the driver passes to `step` as numbers; must match `codes` in driver.py.
const OUTCOME_CODES = ["undefined", "pass", "FAIL", "NOT_RUN", "TIMEOUT"];

/**
 * Called by the driver between phases (load, then each test): records the
 * finished phase where the main thread can read it after a kill, and returns
 * 1 when the main thread interrupted that phase (its outcome is TIMEOUT).
 * `prev` is an index into OUTCOME_CODES, or the outcome itself (an error).
 */
function step(index: number, prev: number | string, ms: number): number {
  const seq = Atomics.load(ctrl, SEQ);
  const interrupted = Atomics.load(ctrl, INTR) === seq && Atomics.load(ctrl, PHASE) !== -2;
  if (Atomics.load(ctrl, PHASE) >= 0) {
    const name = interrupted ? "TIMEOUT" : typeof prev === "number" ? OUTCOME_CODES[prev] : prev;
    const used = Atomics.load(ctrl, TEXT_LEN);
    const { written } = encoder.encodeInto(`${name}\t${ms}\n`, text.subarray(used));
    Atomics.store(ctrl, TEXT_LEN, used + (written ?? 0));
  }
  Atomics.store(ctrl, PHASE, index);
  Atomics.store(interrupt, 0, 0);
  Atomics.store(ctrl, SEQ, seq + 1);
  return interrupted ? 1 : 0;
}

interface Init {
  type: "init";
  token: string;
  indexURL: string;
  /** The driver source, when no snapshot (which has it defined already) is given. */
  driver?: string;
  ctrl: SharedArrayBuffer;
  interrupt: SharedArrayBuffer;
  snapshot?: Uint8Array;
  makeSnapshot?: boolean;
}

interface Batch {
  type: "batch";
  jobs: {
    id: number;
    setup: string;
    code: string;
    tests: string[];
    start: number;
    stop: boolean;
  }[];
}

async function init(msg: Init): Promise<void> {
  token = msg.token;
  ctrl = new Int32Array(msg.ctrl);
  text = new Uint8Array(msg.ctrl, TEXT_OFFSET * 4);
  interrupt = new Int32Array(msg.interrupt);
  // Each worker compiles Pyodide's wasm itself (lazily, ~0.1 s). Handing every
  // worker one module compiled by the main thread started them no faster and
  // made each job ~20% slower, the shared code apparently never optimised in
  // the workers (measured: 705-716 vs 855-917 us per suite).
  py = await loadPyodide({
    indexURL: msg.indexURL,
    stdout: () => {},
    stderr: () => {},
    _makeSnapshot: msg.makeSnapshot,
    _loadSnapshot: msg.snapshot,
  });
  if (!msg.snapshot) py.runPython(msg.driver!);
  if (msg.makeSnapshot) {
    const bytes = py.makeMemorySnapshot();
    post({ type: "snapshot", token, bytes }, [bytes.buffer as ArrayBuffer]);
    return;
  }
  py.setInterruptBuffer(interrupt);
  const install = py.globals.get("pyodide_install");
  run = install(step);
  install.destroy();
  post({ type: "ready", token });
}

// Set once the interpreter failed under a job. Pyodide is unusable after a
// fatal error, and a batch already on its way here would run on the broken
// interpreter and overwrite the control block the main thread is about to
// read to learn where the job died.
let faulted = false;

// Results wait here and go out together: a message per job woke the host's
// main thread once per suite, a cost comparable to running the suite. They
// leave at least every RESULT_MS, so a kill loses (and re-runs) little.
const RESULT_MS = 20;

function runBatch(msg: Batch): void {
  if (faulted) return;
  let done: { id: number; results: string }[] = [];
  let sent = performance.now();
  for (const [k, job] of msg.jobs.entries()) {
    // Claim the job; this fails once the main thread cut the batch short (a
    // job stalled) and queued the rest elsewhere.
    if (Atomics.compareExchange(ctrl, NEXT, k, k + 1) !== k) break;
    Atomics.store(ctrl, JOB, job.id);
    Atomics.store(ctrl, TEXT_LEN, 0);
    Atomics.store(ctrl, PHASE, -1);
    let results: string;
    try {
      results = run!(job.setup, job.code, JSON.stringify(job.tests), job.start, job.stop);
    } catch (e) {
      // The driver itself failed (e.g. an interrupt landed in its bookkeeping):
      // report where, and let the pool replace this worker.
      faulted = true;
      const phase = Atomics.load(ctrl, PHASE);
      if (done.length > 0) post({ type: "results", token, done });
      post({ type: "fault", token, id: job.id, phase, error: String((e as Error)?.message ?? e) });
      return;
    }
    done.push({ id: job.id, results });
    if (performance.now() - sent >= RESULT_MS) {
      post({ type: "results", token, done });
      done = [];
      sent = performance.now();
    }
  }
  Atomics.store(ctrl, JOB, 0);
  // Pyodide keeps its Emscripten module on a private field; its heap size is the footprint.
  const heap = (py as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8;
  post({ type: "idle", token, done, memory: heap.byteLength });
}

self.addEventListener("message", (e: MessageEvent) => {
  const msg = e.data as Init | Batch;
  if (msg.type === "init") {
    init(msg).catch((err) => post({ type: "failed", error: String(err?.stack ?? err) }));
  } else if (msg.type === "batch") {
    runBatch(msg);
  }
});
