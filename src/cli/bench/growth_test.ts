import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { readTable } from "../../io/arrow_table.ts";
import { buildTasks } from "../../tasks/tasks_stage.ts";
import { pythonSyntax } from "../../tasks/python_syntax.ts";
import {
  GROWTH_STAGES,
  growthExponents,
  growthTable,
  mergeResults,
  parseScales,
  runGrowth,
  type ScaleMeasure,
} from "./growth.ts";
import { growthTasks, taskJsonl } from "./growth_tasks.ts";
import { builtinTaskLines } from "../../../test/support/builtin_tasks.ts";

const builtin = async () => (await buildTasks({ sources: ["builtin"], quiet: true })).rows;

Deno.test("growthTasks is deterministic and renames the entry point in copies after the first", async () => {
  const rows = (await builtin()).slice(0, 5);
  const a = taskJsonl(await growthTasks(rows, 2.4));
  const b = taskJsonl(await growthTasks(rows, 2.4));
  assertEquals(a, b);
  const lines = a.trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(lines.length, 12); // round(2.4 × 5)
  assertEquals(new Set(lines.map((l) => l.task_id)).size, 12);
  // Copy 0 is the task as it is.
  assertEquals(lines[0].canonical, rows[0].canonical);
  assertEquals(lines[0].entry_point, rows[0].entry_point);
  // Copy 2 of task 1 (line 11) calls and defines f_v2, and never the old name.
  const copy = lines[11], ep = rows[1].entry_point;
  assertEquals(copy.entry_point, `${ep}_v2`);
  match(copy.canonical, new RegExp(`def ${ep}_v2\\(`));
  for (const test of copy.tests) {
    ok(!new RegExp(`\\b${ep}\\(`).test(test), test);
    ok(new RegExp(`\\b${ep}_v2\\b`).test(test), test);
  }
  assertEquals(copy.domain, rows[1].domain);
});

Deno.test("growthTasks wraps a multi-statement test in one exec statement", async () => {
  const [task] = await builtin();
  const ep = task.entry_point;
  const whole = `x = ${ep}\nassert x is ${ep}`;
  const [, renamed] = await growthTasks([{ ...task, tests: [whole] }], 2);
  const syntax = await pythonSyntax();
  assertEquals(syntax.statementCount(renamed.tests[0]), 1);
  assertEquals(renamed.tests[0], `exec(${JSON.stringify(`x = ${ep}_v1\nassert x is ${ep}_v1`)})`);
});

Deno.test("growthExponents flags a stage growing faster than n log n, except score", () => {
  const at = (scale: number, snippets: number, seconds: number): ScaleMeasure => ({
    scale,
    tasks: snippets / 5,
    snippets,
    queries: snippets / 5,
    load: [0, 0],
    stages: ["oracle", "score", "stats"].map((stage) => ({
      stage,
      // oracle linear, score and stats quadratic
      seconds: stage === "oracle" ? seconds : seconds * scale,
      wall_seconds: 0,
      peak_mb: 1,
    })),
  });
  const ex = growthExponents([at(1, 5000, 10), at(3, 15000, 30)]);
  const by = Object.fromEntries(ex.map((e) => [e.stage, e]));
  assertEquals(by.oracle.time, 1);
  assertEquals(by.oracle.flagged, false);
  assertEquals(by.score.time, 2);
  assertEquals(by.score.flagged, false);
  assertEquals(by.stats.flagged, true);
  ok(by.oracle.nlogn > 1 && by.oracle.nlogn < 1.2, String(by.oracle.nlogn));
});

Deno.test("mergeResults joins runs made apart and recomputes the exponents", async () => {
  const dir = await Deno.makeTempDir({ prefix: "growth-merge-" });
  try {
    const run = (scale: number, snippets: number, seconds: number) => ({
      base_tasks: 10,
      sources: ["builtin"],
      configs: ["bm25"],
      rerankers: [],
      scales: [{
        scale,
        tasks: snippets / 5,
        snippets,
        queries: snippets / 5,
        load: [1, 1],
        stages: [{ stage: "oracle", seconds, wall_seconds: seconds + 1, peak_mb: 10 }],
      }],
      exponents: [],
    });
    await Deno.writeTextFile(join(dir, "a.json"), JSON.stringify(run(10, 50000, 100)));
    await Deno.writeTextFile(join(dir, "b.json"), JSON.stringify(run(1, 5000, 10)));
    const merged = mergeResults([join(dir, "a.json"), join(dir, "b.json")]);
    assertEquals(merged.scales.map((s) => s.scale), [1, 10]);
    assertEquals(merged.exponents.map((e) => [e.stage, e.time, e.flagged]), [["oracle", 1, false]]);
    match(growthTable(merged), /exponent ×1→×10/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseScales rejects a non-positive scale", () => {
  assertEquals(parseScales("1,3,10"), [1, 3, 10]);
  let message = "";
  try {
    parseScales("1,0");
  } catch (e) {
    message = (e as Error).message;
  }
  match(message, /--scales must be positive/);
});

Deno.test({
  name: "runGrowth runs every stage on generated tasks; renamed canonicals pass the oracle",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "growth-test-" });
    try {
      // 2 base tasks at 1.5×: both as they are, plus copy 1 of the first (renamed).
      // Built-in ones none of whose mutants loops: no test waits out the default 1,000 ms.
      const tasks = join(out, "base.jsonl");
      const lines = await builtinTaskLines({ loops: false });
      await Deno.writeTextFile(tasks, lines.slice(0, 2).join("\n") + "\n");
      const result = await runGrowth({ scales: [1.5], out, sources: [`jsonl:${tasks}`], base: 2 });
      const [s] = result.scales;
      assertEquals(s.tasks, 3);
      assertEquals(s.stages.map((m) => m.stage), GROWTH_STAGES);
      for (const m of s.stages) {
        ok(m.seconds > 0 && m.wall_seconds >= m.seconds && m.peak_mb > 0, JSON.stringify(m));
      }
      ok(s.snippets > s.queries && s.queries > 0, JSON.stringify(s));
      // Every canonical, the renamed one too, passed its tests: each task is a query.
      const queries = await readTable(join(out, "s1.5", "tables", "queries.arrow"));
      assertEquals(queries.numRows, 3);
      const ids = queries.getChild("query_id")!.toArray().join(" ");
      match(ids, /\.v1/);
      const table = growthTable(result);
      for (const stage of GROWTH_STAGES) match(table, new RegExp(`\\| ${stage} \\| \\d`));
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
