import { eachLine } from "../../io/child_process.ts";
import type { NativeRuntime } from "../../oracle/native_slots.ts";
import type { Job } from "../../oracle/outcome.ts";
import { driverSource } from "../../oracle/driver_source.ts";
import { lockedDownWorker, pyodideDir } from "../../oracle/pyodide_slots.ts";
import { ensureSnapshot } from "../../oracle/pool.ts";
import { cacheDir } from "../../io/paths.ts";
import { median } from "../../common/median.ts";

/**
 * Runs in the driver's namespace (both runtimes): every job in this one
 * thread, no timer, no pool, no messages, each job's namespace cleaned up as
 * in the oracle (`install()`'s cleanup). `_floor_pass()` runs one pass over
 * the jobs and returns its seconds and the tests that passed.
 */
const FLOOR = `
def _floor_setup(jobs_json):
    global _floor_jobs, _floor_cleanup
    _floor_jobs = json.loads(jobs_json)
    _floor_cleanup = install(False)["cleanup"]

def _floor_pass():
    # Each pass compiles every snippet, as the oracle does once; tests come
    # from a cache, as in the oracle.
    tests = {}
    passed = 0
    t0 = time.perf_counter()
    for j in _floor_jobs:
        ns = {"__name__": "__main__", "__builtins__": builtins}
        try:
            exec(compile(j["code"], "<snippet>", "exec"), ns)
            if j["setup"]:
                exec(compile(j["setup"], "<setup>", "exec"), ns)
            loaded = True
        except BaseException:
            loaded = False
        if loaded:
            for src in j["tests"]:
                code = tests.get(src)
                if code is None:
                    code = tests[src] = compile(src, "<test>", "exec")
                try:
                    exec(code, ns)
                    passed += 1
                except BaseException:
                    pass
        _floor_cleanup(ns)
    return "%r %d" % (time.perf_counter() - t0, passed)
`;

/**
 * A native python3 that loads the driver, takes the oracle's rlimits (it runs
 * in the oracle's network namespace too), then runs one pass per line read.
 */
const NATIVE = `
import platform, sys
ns = {"__name__": "<run_path>"}
exec(sys.argv[1], ns)
exec(sys.argv[2], ns)
ns["native_limits"](1 << 30)
out, inp = sys.__stdout__, sys.stdin  # install() replaces sys.stdin
ns["_floor_setup"](inp.readline())
out.write(platform.python_version() + "\\n")
out.flush()
while inp.readline():
    out.write(ns["_floor_pass"]() + "\\n")
    out.flush()
`;

/** Figures of {@link interpreterFloor}. */
export interface FloorFigures {
  /** Median pass, seconds, per runtime. */
  pyodideSeconds: number;
  nativeSeconds: number;
  pyodideSuitesPerSecond: number;
  nativeSuitesPerSecond: number;
  /** Pyodide's suites/s over native's. */
  ratio: number;
  /** Tests that passed in one pass, per runtime: the same when both ran the same suites alike. */
  pyodidePassed: number;
  nativePassed: number;
  pyodideVersion: string;
  nativeVersion: string;
}

/**
 * Both interpreters alone on the same jobs: Pyodide in a locked-down worker
 * thread of this process and the native runtime's python in a child process
 * (its network namespace and rlimits, as in the oracle), each running the
 * driver's harness over every job in one thread, passes taken in turns
 * after one warm-up pass each. What the oracle's pools add (processes,
 * messages, timers, watchers) is left out, so the ratio is the floor set by
 * the interpreters themselves. Jobs must not loop: nothing here interrupts
 * them. Pyodide starts from the oracle's memory snapshot in `cache` (the
 * run's cache folder by default), made there when missing.
 */
export async function interpreterFloor(
  jobs: Job[],
  passes: number,
  native: Pick<NativeRuntime, "python" | "wrapper">,
  cache: string = cacheDir(),
): Promise<FloorFigures> {
  const jobsJson = JSON.stringify(
    jobs.map((j) => ({ setup: j.setup, code: j.code, tests: j.tests })),
  );
  const argv = [...native.wrapper, native.python, "-I", "-c", NATIVE, driverSource(), FLOOR];
  // The child first: a python that cannot run fails before Pyodide loads.
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new Error(`bench oracle: cannot run ${native.python}: ${(e as Error).message}`);
  }
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  /** The child is gone: say so with the last line it wrote to stderr. */
  const childGone = async () => {
    const err = (await stderr).trim();
    return new Error(`bench oracle: ${native.python} floor run ended: ${err.split("\n").pop()}`);
  };
  // The child's lines, in order, each to the next readLine() that waits for one.
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  eachLine(child.stdout, (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  })
    .catch(() => {})
    .finally(() => {
      ended = true;
      for (const w of waiting.splice(0)) w(null);
    });
  const readLine = async (): Promise<string> => {
    const line = lines.length > 0
      ? lines.shift()!
      : ended
      ? null
      : await new Promise<string | null>((r) => waiting.push(r));
    if (line !== null) return line;
    throw await childGone();
  };
  const writeLine = (text: string) =>
    writer.write(encoder.encode(text + "\n")).catch(async () => {
      throw await childGone();
    });
  const parse = (line: string) => {
    const [seconds, passed] = line.split(" ").map(Number);
    return { seconds, passed };
  };
  const nativePass = async () => {
    await writeLine("go");
    return parse(await readLine());
  };
  const worker = floorWorker();
  const reply = (type: string) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      worker.onmessage = (e) => {
        if (e.data.type === type) resolve(e.data);
        else reject(new Error(`bench oracle: Pyodide floor worker: ${e.data.error}`));
      };
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`bench oracle: Pyodide floor worker: ${e.message}`));
      };
    });
  const pyodidePass = async () => {
    const answer = reply("pass");
    worker.postMessage({ type: "pass" });
    return parse((await answer).line);
  };
  try {
    await writeLine(jobsJson);
    const ready = reply("ready");
    // The oracle's own snapshot: a cold load of Pyodide costs ~7 CPU-s, restoring it ~1.
    const snapshot = await Deno.readFile(await ensureSnapshot(cache));
    // Handed over, not copied: ~30 MB.
    worker.postMessage(
      { type: "init", indexURL: pyodideDir(), snapshot, floor: FLOOR, jobs: jobsJson },
      [snapshot.buffer],
    );
    const pyodideVersion = (await ready).version;
    const nativeVersion = await readLine();
    const pyodideTimes: number[] = [], nativeTimes: number[] = [];
    let pyodidePassed = 0, nativePassed = 0;
    for (let pass = 0; pass <= passes; pass++) {
      // Alternate the order, as the pool passes do; pass 0 warms both up.
      for (const which of pass % 2 === 0 ? ["pyodide", "native"] : ["native", "pyodide"]) {
        if (which === "pyodide") {
          const r = await pyodidePass();
          pyodidePassed = r.passed;
          if (pass > 0) pyodideTimes.push(r.seconds);
        } else {
          const r = await nativePass();
          nativePassed = r.passed;
          if (pass > 0) nativeTimes.push(r.seconds);
        }
      }
    }
    const pyodideSeconds = median(pyodideTimes), nativeSeconds = median(nativeTimes);
    return {
      pyodideSeconds,
      nativeSeconds,
      pyodideSuitesPerSecond: jobs.length / pyodideSeconds,
      nativeSuitesPerSecond: jobs.length / nativeSeconds,
      ratio: nativeSeconds / pyodideSeconds,
      pyodidePassed,
      nativePassed,
      pyodideVersion,
      nativeVersion,
    };
  } finally {
    worker.terminate();
    // Its stdin closed, the child ends after the pass it may be running.
    await writer.close().catch(() => {});
    await child.status;
  }
}

function floorWorker(): Worker {
  return new Worker(
    new URL("./oracle_floor_worker.ts", import.meta.url),
    lockedDownWorker(pyodideDir()),
  );
}
