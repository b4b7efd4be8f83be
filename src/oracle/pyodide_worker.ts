/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * One Pyodide instance in a Deno worker whose permissions allow reading the
 * Pyodide files and nothing else. Speaks to `pyodide_slots.ts` by messages and
 * a shared control block (see `CTRL` there) the main thread watches for hangs.
 *
 * This file decides every verdict. It runs each phase of a job (the
 * snippet, the setup, each test) through CPython's C API (pyodide_capi.ts):
 * a test passed exactly when `PyEval_EvalCode` returned, with no Python
 * frame of the harness under it. driver.py's `install()` runs first, before
 * any snippet: it hardens the interpreter and removes every route from
 * Python to JavaScript. After each job its `cleanup` and `end_job` run and
 * the watchers report; a job that tried what only tampering needs, or left
 * a shared namespace changed, gets ERROR:Tamper on every test and this
 * worker runs no other job (it reports itself retired).
 */
import { loadPyodide, type PyodideAPI } from "pyodide";
import { CApi, type Harness, type Ptr, type Verdict } from "./pyodide_capi.ts";
import { type PhaseClock, phaseClock } from "./phase_clock.ts";

// Indices into the shared Int32 control block; must match pyodide_slots.ts.
const SEQ = 0, JOB = 1, PHASE = 2, INTR = 3, TEXT_LEN = 4, NEXT = 5, TEXT_OFFSET = 32;
const TAMPER = "ERROR:Tamper";
// The phase after a job's last test: its cleanup, where the snippet's
// finalizers run. A worker that dies there is charged to the job (every
// test gets the death's outcome), not run again (it would die again).
const CLEANUP = -3;
// Finished jobs' results go out at least this often, so a kill loses (and
// re-runs) little.
const RESULT_MS = 20;
// Code objects kept (see driver.py: the same limits as the native worker's).
const TEST_CACHE_ENTRIES = 20000;
const SNIPPET_CACHE_CHARS = 2_000_000;

// Captured before anything else runs.
const post = self.postMessage.bind(self);
const now = performance.now.bind(performance);
let token = "";
let ctrl: Int32Array;
let text: Uint8Array;
let interrupt: Int32Array;
let py: PyodideAPI;
let api: CApi;
let harness: Harness;
/** Outside careful batches, a phase start is reported only this long after the last. */
let gapMs = 0;
/** The running phase's CPU clock and the signals CPython reads (phase_clock.ts). */
let clock: PhaseClock;
// deno-lint-ignore no-explicit-any
let module: any;
const encoder = new TextEncoder();
const tests = new Map<string, Ptr | Verdict>();
const snippets = new Map<string, Ptr | Verdict>();
let snippetChars = 0;

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
  /** Outside careful batches, the worker reports phases at most about this often. */
  gapMs?: number;
  /** The per-test limit, in CPU time of this thread (see phase_clock.ts). */
  limitMs?: number;
  /** How often a phase past the limit is interrupted again (the main thread's tick). */
  repeatMs?: number;
}

interface WorkerJob {
  id: number;
  setup: string;
  code: string;
  tests: string[];
  start: number;
  stop: boolean;
}

interface Batch {
  type: "batch";
  /** Report every phase boundary (a job the pool runs again after a death). */
  careful: boolean;
  jobs: WorkerJob[];
}

/** Whether a tampering attempt or a shared-state change was seen in this job so far. */
function tampered(): boolean {
  // HEAPU8 is replaced whenever the wasm memory grows: read it afresh.
  return api.touched || module.HEAPU8[harness.stateAddr] !== 0;
}

/**
 * Records the finished phase where the main thread can read it after a kill
 * (its outcome, or ERROR:Tamper once the job tampered), shows the main
 * thread the next phase (`index`; -1 the load, -2 none), and says whether
 * the main thread interrupted the phase just finished.
 */
function mark(index: number, outcome: string, ms: number, cpu: number | null): boolean {
  const seq = Atomics.load(ctrl, SEQ);
  const interrupted = Atomics.load(ctrl, INTR) === seq && Atomics.load(ctrl, PHASE) !== -2;
  if (Atomics.load(ctrl, PHASE) >= 0) {
    const name = tampered() ? TAMPER : interrupted ? "TIMEOUT" : outcome;
    const used = Atomics.load(ctrl, TEXT_LEN);
    const { written } = encoder.encodeInto(`${name}\t${ms}\t${cpu ?? ""}\n`, text.subarray(used));
    Atomics.store(ctrl, TEXT_LEN, used + (written ?? 0));
  }
  Atomics.store(ctrl, PHASE, index);
  Atomics.store(interrupt, 0, 0);
  Atomics.store(ctrl, SEQ, seq + 1);
  return interrupted;
}

let last = 0;
let gap = 0;

/**
 * A phase boundary. Outside careful batches the main thread is told only at
 * the first boundary `gap` or more after it last was (each report cost a
 * share of a short suite when Python made it): seeing none, it takes the
 * phase it last heard of to be running since then, so it interrupts `gap`
 * late at most, never early. An interrupted phase ran past the timeout (>
 * `gap`), so it always ends in a report, which says it was interrupted.
 * What the main thread cannot tell is which phase hung, if it must kill:
 * the pool runs that job again careful (every boundary reported), alone.
 */
function step(index: number, outcome: string, ms: number, cpu: number | null): string {
  const t = now();
  if (t - last < gap) return outcome;
  last = t;
  return mark(index, outcome, ms, cpu) ? "TIMEOUT" : outcome;
}

/** Claims the batch's k-th job unless the main thread cut the batch short. */
function begin(k: number, id: number): boolean {
  if (Atomics.compareExchange(ctrl, NEXT, k, k + 1) !== k) return false;
  Atomics.store(ctrl, JOB, id);
  Atomics.store(ctrl, TEXT_LEN, 0);
  Atomics.store(ctrl, PHASE, -1);
  mark(-1, "", 0, 0);
  return true;
}

function outcomeOf(v: Verdict): string {
  switch (v.kind) {
    case "pass":
      return "pass";
    case "fail":
      return "FAIL";
    // Our own interrupt comes back TIMEOUT from step(); any other is the snippet's.
    case "interrupted":
      return "ERROR:KeyboardInterrupt";
    case "error":
      return `ERROR:${v.name}`;
  }
}

function cached(
  cache: Map<string, Ptr | Verdict>,
  src: string,
  file: "snippet" | "setup" | "test",
) {
  let code = cache.get(src);
  if (code === undefined) {
    code = api.compile(harness.compile, src, file);
    // One that does not compile is compiled (and fails) again next time.
    if (typeof code === "number") cache.set(src, code);
  }
  return code;
}

function clearCache(cache: Map<string, Ptr | Verdict>): void {
  for (const code of cache.values()) if (typeof code === "number") api.drop(code);
  cache.clear();
}

/** Runs `code` (or reports its compile verdict) in `ns`; the phase's outcome. */
function phase(code: Ptr | Verdict, ns: Ptr): string {
  return outcomeOf(typeof code === "number" ? api.run(code, ns, harness) : code);
}

/** One test's outcome, wall ms and CPU ms. */
type Result = [string, number, number | null];

/** One job; its outcomes, and whether its worker must retire. */
function runJob(job: WorkerJob): { outcomes: Result[]; retire: boolean } {
  const n = job.tests.length;
  api.touched = false;
  api.selfWrote = false;
  module.HEAPU8[harness.stateAddr] = 0;
  if (tests.size > TEST_CACHE_ENTRIES) clearCache(tests);
  if (!snippets.has(job.code) && snippetChars + job.code.length > SNIPPET_CACHE_CHARS) {
    clearCache(snippets);
    snippetChars = 0;
  }
  const ns = api.namespace(harness.builtins);
  const outcomes: Result[] = [];
  try {
    // The setup is test-side code (MBPP's test_setup_code, HumanEval's test
    // imports): as in those harnesses it runs after the code, and may build
    // fixtures from classes the code defines (MBPP 367, 927).
    let t0 = now();
    if (!snippets.has(job.code)) snippetChars += job.code.length;
    clock.start();
    let load = phase(cached(snippets, job.code, "snippet"), ns);
    if (load === "pass" && job.setup) load = phase(cached(tests, job.setup, "setup"), ns);
    const loadMs = now() - t0;
    const loadCpu = clock.end();
    if (loadCpu.over) load = "TIMEOUT";
    const next = job.start < n ? job.start : CLEANUP;
    load = step(next, load === "pass" ? "" : load, loadMs, loadCpu.cpu);
    if (load !== "") {
      // setup or code itself failed: every test shares that outcome.
      for (let i = job.start; i < n; i++) outcomes.push([load, 0, 0]);
    } else {
      for (let i = job.start; i < n; i++) {
        t0 = now();
        clock.start();
        const got = phase(cached(tests, job.tests[i], "test"), ns);
        const ms = now() - t0;
        const { cpu, over } = clock.end();
        const outcome = step(i + 1 < n ? i + 1 : CLEANUP, over ? "TIMEOUT" : got, ms, cpu);
        outcomes.push([outcome, ms, cpu]);
        if (job.stop && outcome === "TIMEOUT" && i + 1 < n) {
          // Tell the watcher the tests are over, so a death now is charged
          // to the cleanup instead of to a test that will never start.
          step(CLEANUP, "NOT_RUN", 0, 0);
          for (let k = i + 1; k < n; k++) outcomes.push(["NOT_RUN", 0, 0]);
          break;
        }
      }
    }
  } finally {
    // Every finalizer of the snippet's runs in cleanup(), whose frame holds
    // nothing of the harness's; the watchers still count what they do, and
    // it runs under the CPU limit as a test does (interrupted, the job is
    // left unclean, as by the main thread's interrupt).
    api.dropAddedModules();
    clock.start();
    let cleaned = api.call(harness.cleanup, ns) !== null;
    clock.end();
    api.drop(ns);
    if (api.selfWrote) cleaned = api.call(harness.restoreSelfWritten) !== null && cleaned;
    api.settle();
    const left = api.call(harness.endJob);
    if (!cleaned || left !== 0) api.touched = true;
  }
  const retire = tampered();
  return {
    outcomes: retire ? outcomes.map(([_o, ms, cpu]) => [TAMPER, ms, cpu]) : outcomes,
    retire,
  };
}

async function init(msg: Init): Promise<void> {
  token = msg.token;
  ctrl = new Int32Array(msg.ctrl);
  text = new Uint8Array(msg.ctrl, TEXT_OFFSET * 4);
  interrupt = new Int32Array(msg.interrupt);
  gapMs = msg.gapMs ?? 0;
  clock = phaseClock(interrupt, now, msg.limitMs ?? Infinity, msg.repeatMs ?? 50);
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
  // CPython reads its signals through this object from now on (see phase_clock.ts).
  // deno-lint-ignore no-explicit-any
  (py as unknown as { _module: any })._module.Py_EmscriptenSignalBuffer = clock.signals;
  // deno-lint-ignore no-explicit-any
  module = (py as unknown as { _module: any })._module;
  api = new CApi(module);
  const install = py.globals.get("install");
  const h = install(true);
  install.destroy();
  const get = (name: string) => api.take(h.get(name));
  const state = get("state");
  harness = {
    compile: get("compile"),
    builtins: get("builtins"),
    assertionError: get("AssertionError"),
    keyboardInterrupt: get("KeyboardInterrupt"),
    cleanup: get("cleanup"),
    restoreSelfWritten: get("restore_self_written"),
    endJob: get("end_job"),
    stateAddr: api.bytesOf(state),
  };
  const dicts = get("module_dicts");
  const types = get("heap_types");
  const sysDict = get("sys_dict");
  const selfWritten = get("self_written");
  const strType = get("str");
  const modules = get("modules");
  h.destroy();
  // The driver ran in __main__: nothing of it stays there for a snippet to find.
  const main = py.globals;
  main.clear();
  main.set("__name__", "__main__");
  api.watch(dicts, types, sysDict, selfWritten, strType, modules);
  api.drop(dicts);
  api.drop(types);
  api.drop(selfWritten);
  api.drop(sysDict);
  post({ type: "ready", token });
}

// Set once the interpreter failed under a job. Pyodide is unusable after a
// fatal error, and a batch already on its way here would run on the broken
// interpreter and overwrite the control block the main thread is about to
// read to learn where the job died.
let faulted = false;

function runBatch(msg: Batch): void {
  if (faulted) return;
  gap = msg.careful ? 0 : gapMs;
  let done: [number, Result[]][] = [];
  let posted = now();
  let retire = false;
  try {
    for (let k = 0; k < msg.jobs.length; k++) {
      const job = msg.jobs[k];
      last = now();
      if (!begin(k, job.id)) break;
      const r = runJob(job);
      done.push([job.id, r.outcomes]);
      if (r.retire) {
        // The rest of the batch is not started: the pool queues it again.
        retire = true;
        Atomics.store(ctrl, NEXT, -1);
        break;
      }
      if (now() - posted >= RESULT_MS) {
        post({ type: "results", token, done });
        done = [];
        posted = now();
      }
    }
  } catch (e) {
    // The interpreter itself failed (a fatal error in wasm), having posted
    // what finished: report where, and let the pool replace this worker.
    faulted = true;
    if (done.length > 0) post({ type: "results", token, done });
    const id = Atomics.load(ctrl, JOB);
    const at = Atomics.load(ctrl, PHASE);
    post({ type: "fault", token, id, phase: at, error: String((e as Error)?.message ?? e) });
    return;
  }
  Atomics.store(ctrl, JOB, 0);
  // Pyodide's heap size is the footprint.
  post({ type: "idle", token, done, memory: module.HEAPU8.byteLength, retire });
}

self.addEventListener("message", (e: MessageEvent) => {
  const msg = e.data as Init | Batch;
  if (msg.type === "init") {
    init(msg).catch((err) => post({ type: "failed", error: String(err?.stack ?? err) }));
  } else if (msg.type === "batch") {
    runBatch(msg);
  }
});
