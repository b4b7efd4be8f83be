import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { readTableRows, writeTable } from "../io/arrow_table.ts";
import { sha256Hex } from "../io/hash.ts";
import { tablePath } from "../io/paths.ts";
import { MUTANTS, REJECTS, TASKS } from "../tables/schema.ts";
import { runMutateStage } from "./mutate_stage.ts";
import { mutateTasks, mutateTasksParallel } from "./mutate_tasks.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { diffOneEdit } from "./diff_one_edit.ts";

const FIXTURE = new URL("../../test/fixtures/mutate/tasks.jsonl", import.meta.url);

async function withOut(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "execret_mutate_" });
  const before = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", dir);
  try {
    await fn(dir);
  } finally {
    if (before === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", before);
    await Deno.remove(dir, { recursive: true });
  }
}

async function writeFixtureTasks(): Promise<{ task_id: string; canonical: string }[]> {
  const tasks = (await Deno.readTextFile(FIXTURE)).trim().split("\n").map((l) => JSON.parse(l));
  await writeTable("tasks", tasks, TASKS, { parquet: false });
  return tasks;
}

Deno.test("runMutateStage writes mutants in task then selection order, byte-identical on rerun", async () => {
  await withOut(async () => {
    const tasks = await writeFixtureTasks();
    const summary = await runMutateStage({ quiet: true });
    const first = await Deno.readFile(tablePath("mutants"));
    const rows = await readTableRows(tablePath("mutants"), MUTANTS);
    strictEqual(summary.candidates, rows.length);
    // Task order of the tasks table, then order 0, 1, 2, ... within each task.
    const order = tasks.map((t) => t.task_id);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      const ta = order.indexOf(a.task_id);
      const tb = order.indexOf(b.task_id);
      ok(ta < tb || (ta === tb && b.order === a.order + 1), `${a.snippet_id} then ${b.snippet_id}`);
    }
    for (const row of rows) {
      strictEqual(row.snippet_id, `${row.task_id}#m${row.order}`);
      strictEqual(row.code_sha256, sha256Hex(row.code));
      strictEqual(row.extension, false);
      const canonical = tasks.find((t) => t.task_id === row.task_id)!.canonical;
      const diff = diffOneEdit(canonical, row.code, row.bug_type);
      ok(diff && diff.line === row.line && diff.before === row.before && diff.after === row.after);
    }
    // The first four of a task with four types are four different types.
    const clamp = rows.filter((r) => r.task_id === "fixture/clamp");
    strictEqual(new Set(clamp.slice(0, 4).map((r) => r.bug_type)).size, 4);

    await runMutateStage({ quiet: true });
    assertEquals(await Deno.readFile(tablePath("mutants")), first);
    const other = await runMutateStage({ quiet: true, seed: 1 });
    strictEqual(other.candidates, summary.candidates);
    ok(
      JSON.stringify(await readTableRows(tablePath("mutants"), MUTANTS)) !== JSON.stringify(rows),
      "another seed, another order",
    );
  });
});

Deno.test("runMutateStage rejects an unparsable canonical and a task with no site, and counts coverage", async () => {
  await withOut(async () => {
    await writeFixtureTasks();
    const summary = await runMutateStage({ quiet: true });
    const rejected = await readTableRows(tablePath("rejects_mutate"), REJECTS);
    assertEquals(
      rejected.map((r) => [r.stage, r.source, r.locator, r.reason.split(" (")[0]]),
      [
        ["mutate", "fixture", "fixture/broken", "canonical does not parse"],
        ["mutate", "other", "fixture/nothing", "no candidate: no site for any enabled operator"],
        ["mutate", "other", "fixture/empty", "canonical is empty or missing"],
      ],
    );
    strictEqual(summary.rejects, 3);
    assertEquals(summary.coverage_per_source.fixture, {
      tasks: 3,
      with_candidates: 2,
      covered: 2,
      covered_with_extensions: 2,
      coverage: 2 / 3,
    });
    assertEquals(summary.coverage_per_source.other, {
      tasks: 3,
      with_candidates: 1,
      covered: 1,
      covered_with_extensions: 1,
      coverage: 1 / 3,
    });
    // clamp and power guard exit; count_pos filters its loop (`if n > 0: count += 1`).
    strictEqual(summary.tasks_per_bug_type.remove_edge_case_check, 3);
    strictEqual(summary.tasks_per_bug_type.wrong_comparison, 3);
  });
});

Deno.test("runMutateStage names the missing tasks table", async () => {
  await withOut(async () => {
    await rejects(
      runMutateStage({ quiet: true }),
      /tasks\.arrow: table not found \(run `execret tasks` first\)/,
    );
  });
});

Deno.test("mutateTasksParallel gives what one thread gives, whatever the number of threads", async () => {
  const tasks = (await Deno.readTextFile(FIXTURE)).trim().split("\n").map((l) => JSON.parse(l));
  const tricky = await Deno.readTextFile(
    new URL("../../test/fixtures/mutate/tricky.py", import.meta.url),
  );
  tasks.push({ task_id: "fixture/tricky", source: "fixture", canonical: tricky });
  const parser = await loadPythonParser();
  const one = mutateTasks(parser, tasks, { quiet: true, extensions: true });
  for (const workers of [2, 3]) {
    const many = await mutateTasksParallel(parser, tasks, {
      quiet: true,
      extensions: true,
      workers,
    });
    assertEquals(many.rows, one.rows);
    assertEquals(many.rejects, one.rejects);
    assertEquals({ ...many.summary, ms: 0 }, { ...one.summary, ms: 0 });
  }
});
