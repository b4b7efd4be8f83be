import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { createPool, type OraclePool, type Runtime, seedSnapshot, snapshotFile } from "./pool.ts";
import { processCpuSeconds } from "./_child_process.ts";
import { load, NORMAL, options } from "./_pool_fixtures.ts";

/** How long a Pyodide worker took to start in the test before (ms), under the load of then. */
let recentBootMs: number | undefined;

/** How long a Pyodide worker takes to start now (ms). */
async function bootTime(): Promise<number> {
  const probe = await createPool({ runtime: "pyodide", workers: 1, timeoutMs: 300 });
  probe.close();
  return probe.stats().startMs;
}

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
  } finally {
    pool.close();
  }
}

Deno.test({
  name: "a suite that stops at its first TIMEOUT records NOT_RUN after it (native)",
  ...options,
  fn: () => stopAtTimeoutRun("native"),
});
Deno.test({
  name: "a suite that stops at its first TIMEOUT records NOT_RUN after it (pyodide)",
  ...options,
  fn: () => stopAtTimeoutRun("pyodide"),
});

Deno.test({
  name: "a Pyodide worker that exits under a test is replaced, every time (pyodide)",
  ...options,
  async fn() {
    // A batch that reaches a worker after its interpreter failed must not
    // run: it overwrote where the job had died (once the pool sent a batch
    // twice, about one death in six lost the results of the tests before it).
    const pool = await createPool({
      runtime: "pyodide",
      workers: 1,
      timeoutMs: 300,
      memoryLimitBytes: 64 * 1024 * 1024,
    });
    try {
      for (let i = 0; i < 12; i++) {
        const got = await pool.run({
          setup: "",
          code: "import signal\n",
          tests: ["assert 1", "signal.raise_signal(signal.SIGKILL)", "assert 2"],
        });
        assertEquals(got.map((o) => o.outcome), ["pass", "ERROR:Crash", "pass"], `run ${i}`);
      }
      recentBootMs = Math.max(...pool.stats().respawnMs);
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
    // finish a job before the loop times out: in under a second on a quiet
    // machine, in over ten when the pipeline tests' runs share both cores
    // (a fixed 5 s timeout failed there once). So the timeout follows the
    // machine's load now: ten times what one worker took to boot just
    // before (the slowest respawn of the test above; a pool of its own when
    // run alone), at least 4 s and at most the 20 s that always sufficed.
    const bootMs = recentBootMs ?? await bootTime();
    const timeoutMs = Math.round(Math.min(20_000, Math.max(4_000, 10 * bootMs)));
    const pool = await createPool({ runtime: "pyodide", workers: 1, timeoutMs });
    try {
      const finished: string[] = [];
      const loop = { setup: "", code: "def f():\n    while True:\n        pass\n", tests: ["f()"] };
      const jobs = [loop, ...Array.from({ length: 20 }, () => NORMAL)];
      const runs = jobs.map((j, i) =>
        pool.run(j).then((r) => {
          finished.push(i === 0 ? "loop" : "normal");
          return r.map((o) => o.outcome);
        })
      );
      const got = await Promise.all(runs);
      assertEquals(got[0], ["TIMEOUT"]);
      for (const g of got.slice(1)) assertEquals(g, ["pass", "FAIL"]);
      // All 20 went out in the loop's batch; without a spare they would all
      // finish after the loop.
      ok(
        finished.indexOf("loop") > 0,
        `timeout ${timeoutMs} ms (boot ${bootMs} ms); finished: ${finished.join(" ")}`,
      );
      assertEquals(pool.stats().spares, 1);
    } finally {
      pool.close();
    }
  },
});

Deno.test({
  name:
    "a worker killed in C code or in a loop that swallows interrupts leaves nothing running (pyodide)",
  ...options,
  async fn() {
    // Deno's worker.terminate() does not stop a busy thread: each of these
    // left a thread spinning at 100% of a core until the process ended.
    const pool = await createPool({ runtime: "pyodide", workers: 2, timeoutMs: 300 });
    try {
      const got = await Promise.all([
        { code: "def f():\n    return sum(range(10**13))\n", tests: ["f()"] },
        // A handler that swallows every interrupt. (A bare `except:` in a loop
        // swallows most, but on a loaded machine one lands outside the `try`
        // now and then and ends the loop softly: no kill to test.)
        {
          code: "import signal\nsignal.signal(signal.SIGINT, lambda *a: None)\n" +
            "def f():\n    while True:\n        pass\n",
          tests: ["f()"],
        },
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
