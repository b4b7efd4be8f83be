import { writeTable } from "../io/arrow_table.ts";
import { pathDigest } from "../io/file_digest.ts";
import { tablePath } from "../io/paths.ts";
import { type Reject, summarizeRejects, writeRejects } from "../tables/rejects.ts";
import { DOMAINS, type TaskRow, TASKS } from "../tables/schema.ts";
import { inferDomain } from "./domain.ts";
import { SourceError } from "./external.ts";
import { pythonSyntax } from "./python_syntax.ts";
import { resolveSource, type SourceRegistry, TASK_SOURCES } from "./source_registry.ts";
import { compareIds, taskReject } from "./task.ts";

/** Options of {@link runTasksStage}. */
export type TasksStageOptions = {
  /** Source names: builtin, mbpp, humaneval, release:<dir>, jsonl:<path>. */
  sources: string[];
  /** Folder holding mbpp.jsonl and HumanEval.jsonl.gz (default: $EXECRET_MIRROR). */
  mirror?: string;
  /** Fail (after writing the tables) when anything was rejected. */
  strict?: boolean;
  /** Print nothing on stderr. */
  quiet?: boolean;
  /** The built-in tasks file (default data/builtin_tasks.jsonl). */
  builtinPath?: string;
  /** The source kinds names resolve to (default {@link TASK_SOURCES}). */
  registry?: SourceRegistry;
};

/** What {@link runTasksStage} did. */
export type TasksStageResult = {
  /** Path of the written tasks table. */
  path: string;
  tasks: number;
  rejects: number;
  /** Tasks per source, in the order the sources were given. */
  bySource: Record<string, number>;
  /** Rejects per source, same order. */
  rejectsBySource: Record<string, number>;
  /** Tasks per domain, in DOMAINS order. */
  byDomain: Record<string, number>;
  /** Tasks per source and domain. */
  bySourceDomain: Record<string, Record<string, number>>;
  /** Tasks whose domain came from the keyword rules. */
  inferred: number;
  /** Source-specific counts, e.g. humaneval.tests_split / tests_whole. */
  notes: Record<string, Record<string, number>>;
  /** One-line summary of the rejects (`summarizeRejects`). */
  summary: string;
  /** The reject rows as written. */
  rejectRows: Reject[];
};

/** The default sources of `execret tasks`. */
export const DEFAULT_SOURCES = ["builtin", "mbpp", "humaneval"] as const;

/** Thrown by a `strict` run that had rejects, after the tables were written. */
export class TasksRejectedError extends Error {
  constructor(readonly result: TasksStageResult) {
    super(`strict: ${result.summary}`);
    this.name = "TasksRejectedError";
  }
}

/** The tasks and rejects of a set of sources, before anything is written. */
export interface BuiltTasks {
  rows: TaskRow[];
  rejects: Reject[];
  /** The `source` column value of each requested source, in order. */
  labels: string[];
  notes: Record<string, Record<string, number>>;
}

/**
 * Read every source into task rows, in memory: rows sorted by source order,
 * then by source id (numeric parts numerically); rejects in source order,
 * then file order. A source that cannot be read at all (unknown name,
 * missing file, failed download or verification) throws a one-line
 * {@link SourceError}; bad rows inside a source become rejects.
 */
export async function buildTasks(options: TasksStageOptions): Promise<BuiltTasks> {
  const names = options.sources;
  const dupe = names.find((n, i) => names.indexOf(n) !== i);
  if (dupe !== undefined) throw new SourceError(`source ${dupe} is listed twice`);
  const syntax = await pythonSyntax();
  const mirror = options.mirror ?? Deno.env.get("EXECRET_MIRROR") ?? undefined;
  const log = (message: string) => {
    if (!options.quiet) console.error(message);
  };

  const rows: TaskRow[] = [];
  const rejects: Reject[] = [];
  const labels: string[] = [];
  const notes: Record<string, Record<string, number>> = {};
  const firstAt = new Map<string, string>();
  for (const name of names) {
    const started = performance.now();
    const { source, arg } = resolveSource(name, options.registry ?? TASK_SOURCES);
    const { label, read } = await source.read(arg, {
      mirror,
      quiet: options.quiet,
      builtinPath: options.builtinPath,
      syntax,
      log,
    });
    if (labels.includes(label)) {
      throw new SourceError(`source ${name}: another source already has the name ${label}`);
    }
    labels.push(label);
    if (read.notes) notes[label] = read.notes;
    rejects.push(...read.rejects);
    const kept: TaskRow[] = [];
    for (const draft of read.tasks) {
      const first = firstAt.get(draft.task_id);
      if (first !== undefined) {
        rejects.push(
          taskReject(label, draft.locator, `duplicate id: ${draft.task_id} (first at ${first})`),
        );
        continue;
      }
      firstAt.set(draft.task_id, draft.locator);
      const inferred = draft.domain === null;
      kept.push({
        ...draft,
        domain: draft.domain ?? inferDomain(draft.query, draft.canonical),
        domain_inferred: inferred,
      });
    }
    kept.sort((a, b) => compareIds(a.source_id, b.source_id));
    rows.push(...kept);
    log(
      `tasks: ${label}: ${kept.length} tasks, ${read.rejects.length} rejects ` +
        `(${((performance.now() - started) / 1000).toFixed(2)} s)`,
    );
  }
  return { rows, rejects, labels, notes };
}

/**
 * The content digest of every file or folder the sources read (see
 * {@link TaskSource.inputs}), keyed by path: what the tasks stage's stamp
 * must cover besides its settings, so an edited `jsonl:` file or release
 * folder reruns the stage. A missing input digests as null (the stage then
 * fails with its own message).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sourceInputDigests } from "./tasks_stage.ts";
 * deepStrictEqual(await sourceInputDigests(["mbpp", "jsonl:no/such.jsonl"]), {
 *   "no/such.jsonl": null,
 * });
 * ```
 */
export async function sourceInputDigests(
  sources: readonly string[],
  options: Pick<TasksStageOptions, "builtinPath" | "registry"> = {},
): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const name of sources) {
    const { source, arg } = resolveSource(name, options.registry ?? TASK_SOURCES);
    const paths = source.inputs?.(arg, { builtinPath: options.builtinPath }) ??
      (source.argument === null ? [] : [arg]);
    for (const path of paths) out[path] = await pathDigest(path);
  }
  return out;
}

/**
 * The tasks stage: read the sources, write `tasks` (Arrow stream + Parquet)
 * and the stage's rejects, and return counts per source and domain. With
 * `strict`, any reject throws {@link TasksRejectedError} after the tables are
 * written (so they can be inspected).
 */
export async function runTasksStage(options: TasksStageOptions): Promise<TasksStageResult> {
  const built = await buildTasks(options);
  // Refused before anything is written: an empty benchmark would only fail
  // stages later, far from the input that caused it, over the last run's tables.
  if (built.rows.length === 0) {
    throw new SourceError(
      `no tasks from ${options.sources.join(", ")}: ${summarizeRejects(built.rejects)}${
        built.rejects[0] ? `; first: ${built.rejects[0].locator}: ${built.rejects[0].reason}` : ""
      }`,
    );
  }
  const path = await writeTable(
    "tasks",
    built.rows,
    TASKS,
    {
      metadata: { stage: "tasks", sources: JSON.stringify(built.labels) },
    },
  );
  await writeRejects("tasks", built.rejects);
  const result = summarize(built, path);
  if (options.strict && result.rejects > 0) throw new TasksRejectedError(result);
  return result;
}

/** Counts of a built task set (see {@link TasksStageResult}). */
export function summarize(built: BuiltTasks, path = tablePath("tasks")): TasksStageResult {
  const bySource: Record<string, number> = {};
  const rejectsBySource: Record<string, number> = {};
  const bySourceDomain: Record<string, Record<string, number>> = {};
  for (const label of built.labels) {
    bySource[label] = 0;
    rejectsBySource[label] = 0;
    bySourceDomain[label] = Object.fromEntries(DOMAINS.map((d) => [d, 0]));
  }
  const byDomain: Record<string, number> = Object.fromEntries(DOMAINS.map((d) => [d, 0]));
  let inferred = 0;
  for (const row of built.rows) {
    bySource[row.source]++;
    byDomain[row.domain]++;
    bySourceDomain[row.source][row.domain]++;
    if (row.domain_inferred) inferred++;
  }
  for (const r of built.rejects) rejectsBySource[r.source] = (rejectsBySource[r.source] ?? 0) + 1;
  return {
    path,
    tasks: built.rows.length,
    rejects: built.rejects.length,
    bySource,
    rejectsBySource,
    byDomain,
    bySourceDomain,
    inferred,
    notes: built.notes,
    summary: summarizeRejects(built.rejects),
    rejectRows: built.rejects,
  };
}
