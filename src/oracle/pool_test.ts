import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { createPool, type OraclePool, type Runtime, seedSnapshot, snapshotFile } from "./pool.ts";
import { processCpuSeconds } from "../io/child_process.ts";
import { load, NORMAL, options, testOnEachRuntime } from "../../test/support/pool_fixtures.ts";

Deno.test({
  name: "both runtimes give the same outcomes on the shared corpus",
  ...options,
  async fn() {
    const corpus = load("parity.json");
    const got: Record<string, string[][]> = {};
    for (const runtime of ["native", "pyodide"] as const) {
      const pool: OraclePool = await createPool({ runtime, workers: 2, timeoutMs: 300 });
      try {
        const all = await Promise.all(
          corpus.map((s) => pool.run({ setup: s.setup ?? "", code: s.code, tests: s.tests })),
        );
        got[runtime] = all.map((r) => r.map((o) => o.outcome));
      } finally {
        pool.close();
      }
    }
    const expected = corpus.map((s) => s.expect);
    assertEquals(got.native, expected);
    assertEquals(got.pyodide, expected);
  },
});

async function stopAtTimeoutRun(runtime: Runtime): Promise<void> {
  const pool = await createPool({ runtime, workers: 1, timeoutMs: 300 });
  const tests = ["assert f(0) == 0", "f(1)", "assert f(2) == 3", "assert f(3) == 3"];
  try {
    const run = (code: string, stopAtTimeout: boolean) =>
      pool.run({ setup: "", code, tests, stopAtTimeout }).then((r) => r.map((o) => o.outcome));
    // Interrupted by the soft timeout (Python loop) and by a kill (a C-level loop).
    const python = "def f(x):\n    while x == 1:\n        pass\n    return x\n";
    const cLevel = "def f(x):\n    return sum(range(10**13)) if x == 1 else x\n";
    for (const code of [python, cLevel]) {
      assertEquals(await run(code, true), ["pass", "TIMEOUT", "NOT_RUN", "NOT_RUN"], code);
      assertEquals(await run(code, false), ["pass", "TIMEOUT", "FAIL", "pass"], code);
    }
    ok(
      pool.stats().kills >= 2,
      `expected the C-level loop killed: ${JSON.stringify(pool.stats())}`,
    );
    assertEquals(await run(python.replace("x == 1", "x == 9"), true), [
      "pass",
      "pass",
      "FAIL",
      "pass",
    ]);
    // The worker keeps the code object of a snippet it has run, never its
    // state: the same code again starts from a fresh namespace and a fresh
    // default argument, and code that does not compile fails every time.
    const stateful =
      "COUNT = [0]\nCOUNT[0] += 1\ndef f(x, acc=[]):\n    acc.append(x)\n    return len(acc)\n";
    for (let i = 0; i < 3; i++) {
      const got = await pool.run({
        setup: "",
        code: stateful,
        tests: ["assert f(1) == 1", "assert f(1) == 2", "assert COUNT == [1]"],
      });
      assertEquals(got.map((o) => o.outcome), ["pass", "pass", "pass"], `run ${i}`);
      const broken = await pool.run({ setup: "", code: "def f(:\n", tests: ["f(1)"] });
      assertEquals(broken.map((o) => o.outcome), ["ERROR:SyntaxError"], `run ${i}`);
    }
  } finally {
    pool.close();
  }
}

testOnEachRuntime(
  "a suite that stops at its first TIMEOUT records NOT_RUN after it; a snippet run again starts afresh",
  stopAtTimeoutRun,
);

testOnEachRuntime(
  "the timeout is per phase: tests each under it pass, though their suite runs past it",
  async (runtime) => {
    // The timeout bounds each test, not the suite: eight tests of 150 ms
    // make a suite of 1.2 s and pass; the looping one alone times out.
    const pool = await createPool({ runtime, workers: 1, timeoutMs: 1000 });
    const code = "import time\n" +
      "def f(s):\n    t = time.perf_counter()\n    while time.perf_counter() - t < s:\n" +
      "        pass\n    return 1\n";
    try {
      const got = await pool.run({
        setup: "",
        code,
        tests: [...Array(8).fill("assert f(0.15) == 1"), "f(60)", "assert f(0) == 1"],
      });
      assertEquals(got.map((o) => o.outcome), [...Array(8).fill("pass"), "TIMEOUT", "pass"]);
      ok(got.slice(0, 8).every((o) => o.ms >= 150 && o.ms < 1000), JSON.stringify(got));
      assertEquals(pool.stats().kills, 0);
    } finally {
      pool.close();
    }
  },
);

Deno.test({
  name: "a Pyodide worker that exits under a test is replaced, every time (pyodide)",
  ...options,
  async fn() {
    // Each death is replaced, and the tests before and after the fatal one
    // keep their results. The race this loop was written for (a batch that
    // reached a worker after its interpreter failed ran on it and overwrote
    // where the job had died: about one death in six, when the pool could
    // send a batch twice) no longer shows even with both of its fixes
    // reverted (the worker's `faulted` guard and the slot's use of the
    // fault's id and phase): 0 wrong in 44 deaths, on an idle machine and
    // beside three busy loops, 2026-12-02. So four rounds, not twelve: each
    // costs a Pyodide start (~1.3 CPU-s).
    const pool = await createPool({
      runtime: "pyodide",
      workers: 1,
      timeoutMs: 300,
      memoryLimitBytes: 64 * 1024 * 1024,
    });
    try {
      for (let i = 0; i < 4; i++) {
        const got = await pool.run({
          setup: "",
          code: "import signal\n",
          tests: ["assert 1", "signal.raise_signal(signal.SIGKILL)", "assert 2"],
        });
        assertEquals(got.map((o) => o.outcome), ["pass", "ERROR:Crash", "pass"], `run ${i}`);
      }
    } finally {
      pool.close();
    }
  },
});

Deno.test({
  name: "jobs behind a looping test run on a spare worker meanwhile (pyodide)",
  ...options,
  async fn() {
    // The spare starts once the loop has stalled (250 ms) and must boot and
    // finish the jobs while the loop still runs: in under a second on a
    // quiet machine, in over ten when the pipeline tests share both cores.
    // The test ends the loop itself, by closing the pool, once they are
    // done: a timeout long enough for a loaded machine (it followed the load,
    // 4–20 s) kept a core spinning that long. Without a spare the jobs would
    // wait for the loop's 60 s timeout, and the test would fail then.
    const pool = await createPool({ runtime: "pyodide", workers: 1, timeoutMs: 60_000 });
    try {
      const loop = { setup: "", code: "def f():\n    while True:\n        pass\n", tests: ["f()"] };
      let loopEnded = false;
      // Sent together: all 20 jobs go out in the loop's batch.
      const looping = pool.run(loop).then(
        (r) => r.map((o) => o.outcome).join(" "),
        (e: Error) => e.message,
      ).finally(() => loopEnded = true);
      const jobs = Array.from({ length: 20 }, () => pool.run(NORMAL));
      for (const got of await Promise.all(jobs)) {
        assertEquals(got.map((o) => o.outcome), ["pass", "FAIL"]);
      }
      ok(!loopEnded, "the loop ended before the jobs behind it");
      assertEquals(pool.stats().spares, 1);
      pool.close();
      assertEquals(await looping, "oracle pool closed");
    } finally {
      pool.close();
    }
  },
});

Deno.test({
  name: "a worker killed in C code leaves nothing running (pyodide)",
  ...options,
  async fn() {
    // Deno's worker.terminate() does not stop a busy thread: each of these
    // left a thread spinning at 100% of a core until the process ended. (A
    // Python loop that swallowed every interrupt needed a signal handler of
    // its own, which the sandbox now refuses: ERROR:Tamper.)
    const pool = await createPool({ runtime: "pyodide", workers: 2, timeoutMs: 300 });
    try {
      const got = await Promise.all([
        { code: "def f():\n    return sum(range(10**13))\n", tests: ["f()"] },
        { code: "import itertools\ndef f():\n    return max(itertools.count())\n", tests: ["f()"] },
      ].map((j) => pool.run({ setup: "", ...j })));
      assertEquals(got.map((r) => r.map((o) => o.outcome)), [["TIMEOUT"], ["TIMEOUT"]]);
      ok(pool.stats().kills >= 2, JSON.stringify(pool.stats()));
      assertEquals((await pool.run(NORMAL)).map((o) => o.outcome), ["pass", "FAIL"]);
    } finally {
      pool.close();
    }
    await new Promise((r) => setTimeout(r, 300));
    const before = processCpuSeconds("self");
    await new Promise((r) => setTimeout(r, 1000));
    const used = processCpuSeconds("self") - before;
    ok(used < 0.25, `this process used ${used} s of CPU in the second after closing the pool`);
  },
});

Deno.test("seedSnapshot gives another cache the kit's snapshot file, made once", async () => {
  const to = await Deno.makeTempDir({ prefix: "execret-seed-" });
  try {
    await seedSnapshot(to);
    const made = await Deno.readFile(snapshotFile());
    ok(made.length > 1 << 20, `${made.length} bytes`);
    assertEquals(await Deno.readFile(snapshotFile(to)), made);
    // Seeding again reads the file already made rather than making another.
    const before = (await Deno.stat(snapshotFile())).mtime;
    await seedSnapshot(join(to, "again"));
    assertEquals((await Deno.stat(snapshotFile())).mtime, before);
    assertEquals(await Deno.readFile(snapshotFile(join(to, "again"))), made);
  } finally {
    await Deno.remove(to, { recursive: true });
  }
});
