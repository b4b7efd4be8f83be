/**
 * Task sources → the `tasks` table: built-in tasks, MBPP, HumanEval, an
 * ExecRetrieval release, or any JSONL in the schema of data/TASKS_SCHEMA.md.
 */
export {
  buildTasks,
  type BuiltTasks,
  DEFAULT_SOURCES,
  runTasksStage,
  summarize,
  TasksRejectedError,
  type TasksStageOptions,
  type TasksStageResult,
} from "./stage.ts";
export { readReleaseDistractors, type ReleaseDistractor } from "../release/release_tasks.ts";
export {
  resolveSource,
  type SourceContext,
  type SourceRegistry,
  TASK_SOURCES,
  type TaskSource,
} from "./registry.ts";
export { DOMAIN_KEYWORDS, inferDomain, normalizeDomain } from "./domain.ts";
export { loadManifest, obtainSource, SourceError, type SourceSpec } from "./external.ts";
export type { TaskRow } from "./task.ts";
