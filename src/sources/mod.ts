/**
 * Task sources → the `tasks` table: built-in tasks, MBPP, HumanEval, or any
 * JSONL in the schema of data/TASKS_SCHEMA.md (an ExecRetrieval release's
 * reader is src/release/release_source.ts).
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
