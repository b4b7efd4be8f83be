import { pick, readTableRows, writeTable } from "../io/arrow_table.ts";
import { sha256Hex } from "../io/hash.ts";
import { tablePath } from "../io/paths.ts";
import { writeRejects } from "../tables/rejects.ts";
import { MUTANTS, TASKS } from "../tables/schema.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import {
  type MutateStageOptions,
  type MutateStageResult,
  mutateTasksParallel,
} from "./mutate_tasks.ts";

/**
 * The `mutate` stage: read `tasks`, write `mutants` (rows in task order, then
 * selection order) and the stage's rejects. Same tasks table, seed and
 * options give byte-identical files; the schema metadata records the seed,
 * the options and the SHA-256 of the tasks table read.
 */
export async function runMutateStage(options: MutateStageOptions = {}): Promise<MutateStageResult> {
  const path = tablePath("tasks");
  const tasksBytes = await Deno.readFile(path).catch((e) => {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`${path}: table not found (run \`execret tasks\` first)`);
    }
    throw e;
  });
  const tasks = await readTableRows(path, pick(TASKS, "task_id", "source", "canonical"));
  const parser = await loadPythonParser();
  const { rows, rejects, summary } = await mutateTasksParallel(parser, tasks, options);
  await writeTable("mutants", rows, MUTANTS, {
    metadata: {
      stage: "mutate",
      seed: String(summary.seed),
      extensions: String(summary.extensions),
      selection: "sha256(seed NUL task_id NUL text), types then operators round-robin",
      tasks_sha256: sha256Hex(tasksBytes),
    },
  });
  await writeRejects("mutate", rejects);
  return summary;
}
