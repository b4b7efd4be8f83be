/**
 * The oracle's inputs: the tasks and mutants tables, checked, mutants grouped
 * by task in seeded order.
 *
 * @module
 */
import { readTableRows } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import type { Reject } from "../tables/rejects.ts";
import { type MutantRow, MUTANTS, type TaskRow, TASKS } from "../tables/schema.ts";

/** Order of strings by code unit, as the tables are sorted (no locale). */
export const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The oracle's inputs, checked: tasks by id, each task's mutants in seeded order, rejects. */
export interface OracleInputs {
  tasks: TaskRow[];
  mutantsByTask: Map<string, MutantRow[]>;
  rejects: Reject[];
}

/** Read tasks and mutants; a mutant without code or task is a reject, a task without a canonical an error. */
export async function readOracleInputs(): Promise<OracleInputs> {
  const tasks = await readTableRows(tablePath("tasks"), TASKS);
  const mutants = await readTableRows(tablePath("mutants"), MUTANTS);
  const taskById = new Map<string, TaskRow>();
  for (const t of tasks) {
    if (typeof t.canonical !== "string") {
      throw new Error(`${tablePath("tasks")}: task ${t.task_id} has no canonical`);
    }
    if (taskById.has(t.task_id)) {
      throw new Error(`${tablePath("tasks")}: duplicate task_id ${t.task_id}`);
    }
    taskById.set(t.task_id, t);
  }

  const rejects: Reject[] = [];
  const mutantsByTask = new Map<string, MutantRow[]>();
  for (const m of mutants) {
    if (typeof m.code !== "string" || m.code.trim() === "") {
      rejects.push({
        stage: "oracle",
        source: taskById.get(m.task_id)?.source ?? "",
        locator: m.snippet_id,
        reason: "bad_mutant: no code",
      });
      continue;
    }
    if (!taskById.has(m.task_id)) {
      rejects.push({
        stage: "oracle",
        source: "",
        locator: m.snippet_id,
        reason: `unknown_task: ${m.task_id} is not in tasks`,
      });
      continue;
    }
    const list = mutantsByTask.get(m.task_id) ?? [];
    list.push(m);
    mutantsByTask.set(m.task_id, list);
  }
  for (const list of mutantsByTask.values()) {
    list.sort((a, b) => a.order - b.order || byString(a.snippet_id, b.snippet_id));
  }
  return { tasks, mutantsByTask, rejects };
}
