import { existsSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { mutateTasksParallel, type TaskInput } from "../../mutate/mutate_tasks.ts";
import { pick, readTableRows } from "../../io/arrow_table.ts";
import { TASKS } from "../../tables/schema.ts";
import { tablePath } from "../../io/paths.ts";
import { loadPythonParser } from "../../common/python_parser.ts";

/**
 * The tasks to bench on: `out/tables/tasks.arrow` when present, else MBPP
 * (`code`) and HumanEval (`prompt` + `canonical_solution`) read straight from
 * the `EXECRET_MIRROR` folder, plus `data/builtin_tasks.jsonl` if committed.
 */
export async function benchTasks(): Promise<{ tasks: TaskInput[]; from: string }> {
  const tasksTable = tablePath("tasks");
  if (existsSync(tasksTable)) {
    const tasks = await readTableRows(tasksTable, pick(TASKS, "task_id", "source", "canonical"));
    return { tasks, from: tasksTable };
  }
  const mirror = Deno.env.get("EXECRET_MIRROR");
  if (!mirror) {
    throw new UserError(`${tasksTable} not found and EXECRET_MIRROR is not set; run execret tasks`);
  }
  const tasks: TaskInput[] = [];
  for (const [i, row] of jsonLines(await Deno.readTextFile(join(mirror, "mbpp.jsonl"))).entries()) {
    if (typeof row.code !== "string") throw new UserError(`${mirror}/mbpp.jsonl:${i + 1}: no code`);
    tasks.push({ task_id: `mbpp/${row.task_id}`, source: "mbpp", canonical: row.code });
  }
  const gz = await Deno.readFile(join(mirror, "HumanEval.jsonl.gz"));
  const text = await new Response(
    new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")),
  ).text();
  for (const [i, row] of jsonLines(text).entries()) {
    if (typeof row.prompt !== "string" || typeof row.canonical_solution !== "string") {
      throw new UserError(`${mirror}/HumanEval.jsonl.gz:${i + 1}: no prompt or canonical_solution`);
    }
    const id = String(row.task_id).replace(/^HumanEval\//, "");
    tasks.push({
      task_id: `humaneval/${id}`,
      source: "humaneval",
      canonical: row.prompt + row.canonical_solution,
    });
  }
  const builtin = "data/builtin_tasks.jsonl";
  if (existsSync(builtin)) {
    for (const row of jsonLines(await Deno.readTextFile(builtin))) {
      tasks.push({ task_id: String(row.task_id), source: "builtin", canonical: row.canonical });
    }
  }
  return { tasks, from: `${mirror} (mbpp.jsonl, HumanEval.jsonl.gz)` };
}

// deno-lint-ignore no-explicit-any
function jsonLines(text: string): any[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/**
 * `execret bench mutate [--runs N] [--workers N] [--extensions] [--json]`: parse and mutate
 * every task (this thread's parser initialised once, outside the timing;
 * worker threads start and load theirs inside it), best and median of N runs.
 */
export async function benchMutate(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    runs: { type: "string" },
    workers: { type: "string" },
    extensions: { type: "boolean" },
  });
  const extensions = values.extensions === true;
  const runs = positiveInt("runs", values.runs, 3);
  const workers = values.workers === undefined
    ? undefined
    : positiveInt("workers", values.workers, 1);
  const { tasks, from } = await benchTasks();
  const t0 = performance.now();
  const parser = await loadPythonParser();
  const initMs = performance.now() - t0;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let summary;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    summary = (await mutateTasksParallel(parser, tasks, { quiet: true, workers, extensions }))
      .summary;
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
    times.push(performance.now() - start);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const best = sorted[0];
  const median = sorted[Math.floor(sorted.length / 2)];
  const bestCpu = Math.min(...cpuTimes);
  const result = {
    bench: "mutate",
    from,
    tasks: tasks.length,
    candidates: summary!.candidates,
    rejects: summary!.rejects,
    init_ms: round(initMs),
    best_ms: round(best),
    median_ms: round(median),
    tasks_per_s: round(tasks.length / (best / 1000)),
    // Wall time on a shared machine grows with other load; CPU time much less so.
    best_cpu_ms: round(bestCpu),
    threads: workers ?? "auto",
    extensions,
    load_average_1min: round(Deno.loadavg()[0]),
    coverage_per_source: summary!.coverage_per_source,
  };
  if (values.json) {
    printJson(result);
    return 0;
  }
  console.log(`bench mutate: ${tasks.length} tasks from ${from}`);
  console.log(
    `  parse + mutate + validate + order: best ${result.best_ms} ms, median ${result.median_ms} ms` +
      ` of ${runs} runs (${result.tasks_per_s} tasks/s, threads ${result.threads}` +
      `${extensions ? ", with extensions" : ""});` +
      ` parser init ${result.init_ms} ms`,
  );
  console.log(
    `  best CPU time ${result.best_cpu_ms} ms (1-min load average ${result.load_average_1min} ` +
      `on ${navigator.hardwareConcurrency} cores)`,
  );
  console.log(`  ${result.candidates} candidates, ${result.rejects} rejects`);
  return 0;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
