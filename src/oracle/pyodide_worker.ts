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
let runBatchJson: ((jobsJson: string, careful: boolean) => string) | undefined;
const encoder = new TextEncoder();

// Outcomes the driver passes to `step` as numbers; must match `codes` in driver.py.
const OUTCOME_CODES = ["undefined", "pass", "FAIL", "NOT_RUN", "TIMEOUT"];

/**
 * Called by the driver between phases (load, then each test; outside careful
 * batches only now and then, see driver.py): records the finished phase where
 * the main thread can read it after a kill (in careful batches, where it is
 * every phase), and returns 1 when the main thread interrupted that phase (its
 * outcome is TIMEOUT).
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

/**
 * Called by the driver before the batch's k-th job: claims it, which fails
 * (returns 0) once the main thread cut the batch short and queued the rest
 * elsewhere; else shows the main thread the job and its load phase begun.
 */
function begin(k: number, id: number): number {
  if (Atomics.compareExchange(ctrl, NEXT, k, k + 1) !== k) return 0;
  Atomics.store(ctrl, JOB, id);
  Atomics.store(ctrl, TEXT_LEN, 0);
  Atomics.store(ctrl, PHASE, -1);
  step(-1, 0, 0);
  return 1;
}

/** Called by the driver with finished jobs' results, `[[id, results], ...]` as JSON. */
function postResults(done: string): void {
  post({ type: "results", token, done });
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
  /** Outside careful batches, the driver calls `step` at most about this often (see driver.py). */
  gapMs?: number;
}

interface Batch {
  type: "batch";
  /** Call `step` at every phase boundary (a job the pool runs again after a death). */
  careful: boolean;
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
  runBatchJson = install(step, begin, postResults, (msg.gapMs ?? 0) / 1000);
  install.destroy();
  post({ type: "ready", token });
}

// Set once the interpreter failed under a job. Pyodide is unusable after a
// fatal error, and a batch already on its way here would run on the broken
// interpreter and overwrite the control block the main thread is about to
// read to learn where the job died.
let faulted = false;

function runBatch(msg: Batch): void {
  if (faulted) return;
  let rest: string;
  try {
    rest = runBatchJson!(JSON.stringify(msg.jobs), msg.careful);
  } catch (e) {
    // The driver itself failed (e.g. an interrupt landed in its bookkeeping),
    // having posted what finished: report where, and let the pool replace
    // this worker.
    faulted = true;
    const id = Atomics.load(ctrl, JOB);
    const phase = Atomics.load(ctrl, PHASE);
    post({ type: "fault", token, id, phase, error: String((e as Error)?.message ?? e) });
    return;
  }
  Atomics.store(ctrl, JOB, 0);
  // Pyodide keeps its Emscripten module on a private field; its heap size is the footprint.
  const heap = (py as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8;
  post({ type: "idle", token, done: rest, memory: heap.byteLength });
}

self.addEventListener("message", (e: MessageEvent) => {
  const msg = e.data as Init | Batch;
  if (msg.type === "init") {
    init(msg).catch((err) => post({ type: "failed", error: String(err?.stack ?? err) }));
  } else if (msg.type === "batch") {
    runBatch(msg);
  }
});
