import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { interpreterFloor } from "./oracle_floor.ts";
import { nativeRuntime } from "../../oracle/native_slots.ts";
import { SHELL_CACHE } from "../../../test/support/shell_cache.ts";

const jobs = [
  {
    setup: "",
    code: "def f(x):\n    return x + 1\n",
    tests: ["assert f(1) == 2", "assert f(2) == 3"],
  },
  {
    setup: "",
    code: "def f(x):\n    return x - 1\n",
    tests: ["assert f(1) == 2", "assert f(2) == 1"],
  },
  { setup: "K = 3", code: "def g():\n    return K\n", tests: ["assert g() == 3"] },
  { setup: "", code: "def f(:\n", tests: ["assert f(1) == 2"] },
];

Deno.test("interpreter floor: both interpreters run the same suites, in turns, and report their speed", async () => {
  const f = await interpreterFloor(jobs, 2, await nativeRuntime(), SHELL_CACHE);
  // 2 + 1 + 1 + 0 passing tests: the suites really ran, alike in both.
  assertEquals([f.pyodidePassed, f.nativePassed], [4, 4]);
  for (const s of [f.pyodideSeconds, f.nativeSeconds]) ok(s > 0 && Number.isFinite(s), `${s}`);
  ok(Math.abs(f.ratio - f.nativeSeconds / f.pyodideSeconds) < 1e-12);
  ok(Math.abs(f.pyodideSuitesPerSecond - jobs.length / f.pyodideSeconds) < 1e-6);
  ok(/^3\.\d+\.\d+$/.test(f.pyodideVersion) && /^3\.\d+\.\d+/.test(f.nativeVersion));
});

Deno.test("interpreter floor: a python that cannot run, or dies, fails with one line naming it", async () => {
  await rejects(
    interpreterFloor(jobs, 1, { python: "/nonexistent/python3", wrapper: [] }),
    /cannot run \/nonexistent\/python3/,
  );
  // One that starts and dies: its last words on stderr, not a broken pipe.
  const dying = ["sh", "-c", "echo 'no driver here' >&2; exit 3", "sh"];
  await rejects(
    interpreterFloor(jobs, 1, { python: "python3", wrapper: dying }),
    /python3 floor run ended: no driver here$/,
  );
});
