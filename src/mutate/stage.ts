import { readRows, writeTable } from "../io/arrow_table.ts";
import { sha256Hex } from "../io/hash.ts";
import { tablePath } from "../io/paths.ts";
import { progress } from "../io/progress.ts";
import { type Reject, writeRejects } from "../io/rejects.ts";
import { BUG_TYPES, MUTANTS } from "../tables/schema.ts";
import { type Candidate, mutateCodeWith } from "./mutate_code.ts";
import { loadPythonParser, type PythonParser } from "./python_parser.ts";
import { DEFAULT_SEED, selectionOrder } from "./select.ts";

/** The fields of a `tasks` row the mutation stage reads. */
export interface TaskInput {
  task_id: string;
  source: string;
  canonical: string;
}

/** One row of the `mutants` table. */
export interface MutantRow extends Candidate {
  snippet_id: string;
  task_id: string;
  order: number;
  code_sha256: string;
}

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
  /** No progress output. */
  quiet?: boolean;
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
): MutatedTasks {
  const seed = options.seed ?? DEFAULT_SEED;
  const extensions = options.extensions ?? false;
  const start = performance.now();
  const bar = progress("mutate", tasks.length, { quiet: options.quiet });
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
  for (const type of BUG_TYPES) {
    tasksPerType.set(type, 0);
    candidatesPerType.set(type, 0);
  }
  for (const task of tasks) {
    const result = typeof task.canonical === "string" && task.canonical.trim() !== ""
      ? mutateCodeWith(parser, task.canonical, { extensions })
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
      tasks_per_bug_type: Object.fromEntries(tasksPerType),
      candidates_per_bug_type: Object.fromEntries(candidatesPerType),
      coverage_per_source: Object.fromEntries(
        [...perSource.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
      ),
      coverage: total,
      ms: performance.now() - start,
    },
  };
}

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
  const tasks = await readRows<TaskInput>(path);
  const parser = await loadPythonParser();
  const { rows, rejects, summary } = mutateTasks(parser, tasks, options);
  await writeTable("mutants", rows as unknown as Record<string, unknown>[], MUTANTS, {
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
