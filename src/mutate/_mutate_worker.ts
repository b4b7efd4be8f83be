/// <reference lib="deno.worker" />
/**
 * Worker side of {@link mutateTasksParallel}: mutate one slice of tasks with
 * this worker's own parser and post the result back.
 */
import { loadPythonParser } from "../common/python_parser.ts";
import { type MutateStageOptions, mutateTasks, type TaskInput } from "./mutate_tasks.ts";

self.onmessage = async (e: MessageEvent<{ tasks: TaskInput[]; options: MutateStageOptions }>) => {
  try {
    const parser = await loadPythonParser();
    self.postMessage({ result: mutateTasks(parser, e.data.tasks, e.data.options) });
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
