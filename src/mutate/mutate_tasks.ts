import { sha256Hex } from "../io/hash.ts";
import { progress } from "../io/progress.ts";
import type { Reject } from "../tables/rejects.ts";
import type { MutantRow, TaskRow } from "../tables/schema.ts";
import { type Candidate, mutateCodeWith } from "./mutate_code.ts";
import type { OperatorEntry } from "./operator_entry.ts";
import { paperBugTypes } from "./operator_registry.ts";
import type { PythonParser } from "../common/python_parser.ts";
import { DEFAULT_SEED, selectionOrder } from "./select.ts";

/** The fields of a `tasks` row the mutation stage reads. */
export type TaskInput = Pick<TaskRow, "task_id" | "source" | "canonical">;

/** One row of the `mutants` table. */

/** Per-source coverage: how many tasks have enough candidates to make a benchmark item. */
export interface SourceCoverage {
  tasks: number;
  /** Tasks with at least one candidate. */
  with_candidates: number;
  /** Tasks with ≥4 paper-type candidates covering ≥3 bug types. */
  covered: number;
  /** The same counting extension candidates too (equals `covered` without extensions). */
  covered_with_extensions: number;
  /** covered / tasks. */
  coverage: number;
}

/** What {@link runMutateStage} (and {@link mutateTasks}) report. */
export interface MutateStageResult {
  seed: number;
  extensions: boolean;
  tasks: number;
  candidates: number;
  rejects: number;
  /** Bug type → number of tasks with at least one candidate of that type. */
  tasks_per_bug_type: Record<string, number>;
  /** Bug type → number of candidates. */
  candidates_per_bug_type: Record<string, number>;
  /** Source → coverage (the done-when figure: ≥4 candidates over ≥3 bug types). */
  coverage_per_source: Record<string, SourceCoverage>;
  /** All sources together. */
  coverage: SourceCoverage;
  ms: number;
}

/** Options for {@link runMutateStage}. */
export interface MutateStageOptions {
  /** Seed of the selection order (default {@link DEFAULT_SEED}). */
  seed?: number;
  /** Also run the extension operators (default false: the paper's six only). */
  extensions?: boolean;
  /**
   * The operators to apply (default: the registry, `OPERATORS`). Functions do
   * not cross to workers, so a list given here runs on this thread only.
   */
  operators?: readonly OperatorEntry[];
  /** No progress output. */
  quiet?: boolean;
  /**
   * Threads to spread tasks over: this one plus `workers - 1` Deno workers,
   * each with its own parser (default: the machine's cores, at most 4; 1 for
   * small inputs). The output does not depend on it.
   */
  workers?: number;
}

/** The candidates of many tasks in table order, with rejects and the summary figures. */
export interface MutatedTasks {
  rows: MutantRow[];
  rejects: Reject[];
  summary: MutateStageResult;
}

/**
 * Mutate every task's canonical (the parser already loaded): candidates in
 * seeded selection order, numbered `<task_id>#m<order>`; rejects for edits
 * that broke the syntax, for canonicals that do not parse, and for tasks
 * left with no candidate. Pure: same tasks and options, same result.
 */
export function mutateTasks(
  parser: PythonParser,
  tasks: readonly TaskInput[],
  options: MutateStageOptions = {},
  onTask?: () => void,
): MutatedTasks {
  const seed = options.seed ?? DEFAULT_SEED;
  const extensions = options.extensions ?? false;
  const start = performance.now();
  const bar = progress("mutate", tasks.length, { quiet: options.quiet || onTask !== undefined });
  const rows: MutantRow[] = [];
  const rejects: Reject[] = [];
  const tasksPerType = new Map<string, number>();
  const candidatesPerType = new Map<string, number>();
  const perSource = new Map<string, SourceCoverage>();
  const emptyCoverage = (): SourceCoverage => ({
    tasks: 0,
    with_candidates: 0,
    covered: 0,
    covered_with_extensions: 0,
    coverage: 0,
  });
  const total = emptyCoverage();
  for (const type of paperBugTypes()) {
    tasksPerType.set(type, 0);
    candidatesPerType.set(type, 0);
  }
  for (const task of tasks) {
    const result = typeof task.canonical === "string" && task.canonical.trim() !== ""
      ? mutateCodeWith(parser, task.canonical, { extensions, operators: options.operators })
      : { candidates: [], rejected: [], duplicates: 0, error: "canonical is empty or missing" };
    const reject = (locator: string, reason: string) =>
      rejects.push({ stage: "mutate", source: task.source, locator, reason });
    if (result.error) reject(task.task_id, result.error);
    for (const r of result.rejected) {
      reject(`${task.task_id}:${r.line}:${r.column}`, `${r.reason}: ${r.bug_type}/${r.operator}`);
    }
    if (!result.error && result.candidates.length === 0) {
      reject(task.task_id, "no candidate: no site for any enabled operator");
    }
    const ordered = selectionOrder(result.candidates, { seed, taskId: task.task_id });
    for (const [order, c] of ordered.entries()) {
      rows.push({
        snippet_id: `${task.task_id}#m${order}`,
        task_id: task.task_id,
        bug_type: c.bug_type,
        operator: c.operator,
        extension: c.extension,
        order,
        line: c.line,
        column: c.column,
        before: c.before,
        after: c.after,
        code: c.code,
        code_sha256: sha256Hex(c.code),
      });
    }
    const types = new Set(result.candidates.map((c) => c.bug_type));
    for (const type of types) tasksPerType.set(type, (tasksPerType.get(type) ?? 0) + 1);
    for (const c of result.candidates) {
      candidatesPerType.set(c.bug_type, (candidatesPerType.get(c.bug_type) ?? 0) + 1);
    }
    const enough = (cs: Candidate[]) =>
      cs.length >= 4 && new Set(cs.map((c) => c.bug_type)).size >= 3;
    const covered = enough(result.candidates.filter((c) => !c.extension));
    const coveredAll = enough(result.candidates);
    let source = perSource.get(task.source);
    if (!source) perSource.set(task.source, source = emptyCoverage());
    for (const s of [source, total]) {
      s.tasks++;
      if (result.candidates.length > 0) s.with_candidates++;
      if (covered) s.covered++;
      if (coveredAll) s.covered_with_extensions++;
    }
    bar.tick();
    onTask?.();
  }
  for (const s of [...perSource.values(), total]) s.coverage = s.tasks ? s.covered / s.tasks : 0;
  bar.done(`${rows.length} candidates`);
  return {
    rows,
    rejects,
    summary: {
      seed,
      extensions,
      tasks: tasks.length,
      candidates: rows.length,
      rejects: rejects.length,
      tasks_per_bug_type: orderedCounts(tasksPerType),
      candidates_per_bug_type: orderedCounts(candidatesPerType),
      coverage_per_source: Object.fromEntries(
        [...perSource.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
      ),
      coverage: total,
      ms: performance.now() - start,
    },
  };
}

/** Counts with the paper's bug types first (zeros included), then any others by name. */
function orderedCounts(counts: ReadonlyMap<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const type of paperBugTypes()) out[type] = counts.get(type) ?? 0;
  for (const type of [...counts.keys()].sort()) out[type] ??= counts.get(type)!;
  return out;
}

/**
 * Join the results of consecutive slices of a task list into the result of
 * the whole list: rows and rejects concatenated, counts summed.
 */
export function mergeMutated(parts: readonly MutatedTasks[], ms: number): MutatedTasks {
  const sum = (pick: (s: MutateStageResult) => Record<string, number>) => {
    const counts = new Map<string, number>();
    for (const p of parts) {
      for (const [k, v] of Object.entries(pick(p.summary))) counts.set(k, (counts.get(k) ?? 0) + v);
    }
    return orderedCounts(counts);
  };
  const addCoverage = (a: SourceCoverage, b: SourceCoverage): SourceCoverage => {
    const tasks = a.tasks + b.tasks;
    const covered = a.covered + b.covered;
    return {
      tasks,
      with_candidates: a.with_candidates + b.with_candidates,
      covered,
      covered_with_extensions: a.covered_with_extensions + b.covered_with_extensions,
      coverage: tasks ? covered / tasks : 0,
    };
  };
  const none: SourceCoverage = {
    tasks: 0,
    with_candidates: 0,
    covered: 0,
    covered_with_extensions: 0,
    coverage: 0,
  };
  const perSource = new Map<string, SourceCoverage>();
  for (const p of parts) {
    for (const [source, c] of Object.entries(p.summary.coverage_per_source)) {
      perSource.set(source, addCoverage(perSource.get(source) ?? none, c));
    }
  }
  const rows = parts.flatMap((p) => p.rows);
  const rejects = parts.flatMap((p) => p.rejects);
  const first = parts[0]?.summary;
  return {
    rows,
    rejects,
    summary: {
      seed: first?.seed ?? DEFAULT_SEED,
      extensions: first?.extensions ?? false,
      tasks: parts.reduce((n, p) => n + p.summary.tasks, 0),
      candidates: rows.length,
      rejects: rejects.length,
      tasks_per_bug_type: sum((s) => s.tasks_per_bug_type),
      candidates_per_bug_type: sum((s) => s.candidates_per_bug_type),
      coverage_per_source: Object.fromEntries(
        [...perSource.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
      ),
      coverage: parts.map((p) => p.summary.coverage).reduce(addCoverage, none),
      ms,
    },
  };
}

/** Split tasks into `n` consecutive slices of about equal total code length. */
function slices(tasks: readonly TaskInput[], n: number): TaskInput[][] {
  const size = (t: TaskInput) => (typeof t.canonical === "string" ? t.canonical.length : 0) + 1;
  const total = tasks.reduce((s, t) => s + size(t), 0);
  const out: TaskInput[][] = [[]];
  let acc = 0;
  for (const task of tasks) {
    if (acc >= (total * out.length) / n && out.length < n) out.push([]);
    out[out.length - 1].push(task);
    acc += size(task);
  }
  return out;
}

/**
 * {@link mutateTasks} over several threads: the tasks are cut into
 * consecutive slices, this thread mutates the first while Deno workers (each
 * loading its own parser) mutate the rest, and the results are joined in
 * task order, so the output is the same as one thread's.
 */
export async function mutateTasksParallel(
  parser: PythonParser,
  tasks: readonly TaskInput[],
  options: MutateStageOptions = {},
): Promise<MutatedTasks> {
  const start = performance.now();
  const threads = options.operators ? 1 : Math.max(
    1,
    Math.min(options.workers ?? defaultThreads(tasks.length), tasks.length),
  );
  if (threads === 1) return mutateTasks(parser, tasks, options);
  const bar = progress("mutate", tasks.length, { quiet: options.quiet });
  const [own, ...others] = slices(tasks, threads);
  const remote = others.map((slice) =>
    inWorker(slice, options).then((r) => (bar.tick(slice.length), r))
  );
  // Let the workers start before this thread gets busy.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const local = mutateTasks(parser, own, options, () => bar.tick());
  const merged = mergeMutated([local, ...await Promise.all(remote)], performance.now() - start);
  bar.done(`${merged.rows.length} candidates`);
  return merged;
}

function defaultThreads(tasks: number): number {
  if (tasks < 200) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency ?? 1));
}

function inWorker(tasks: TaskInput[], options: MutateStageOptions): Promise<MutatedTasks> {
  const worker = new Worker(new URL("./_mutate_worker.ts", import.meta.url).href, {
    type: "module",
  });
  return new Promise<MutatedTasks>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<{ result?: MutatedTasks; error?: string }>) => {
      worker.terminate();
      if (e.data.error !== undefined) reject(new Error(`mutate worker: ${e.data.error}`));
      else resolve(e.data.result!);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      reject(new Error(`mutate worker: ${e.message}`));
    };
    worker.postMessage({ tasks, options: { ...options, quiet: true, workers: 1 } });
  });
}
