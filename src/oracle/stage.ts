import { readTableRows, writeTable } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { type Reject, summarizeRejects, writeRejects } from "../tables/rejects.ts";
import { sha256Hex } from "../io/hash.ts";
import {
  CORPUS,
  EXECUTION_TIMES,
  EXECUTIONS,
  type MutantRow,
  MUTANTS,
  QUERIES,
  type TaskRow,
  TASKS,
  VALIDATION,
} from "../tables/schema.ts";
import { allPass, complete, tampered, type TestOutcome, timeoutOnly } from "./outcome.ts";
import type { Runtime } from "./pool.ts";
import { type RunSuitesReport, type SuiteResult, SuiteRunner } from "./run_suites.ts";
import { inShard, type Shard } from "../common/shard.ts";

export { VALIDATION };

/** Distractors kept per task, at most. */
export const MAX_DISTRACTORS = 4;

/** Options of {@link runOracleStage}. */
export interface OracleStageOptions {
  runtime?: Runtime;
  workers?: number;
  timeoutMs?: number;
  maxDistractors?: number;
  quiet?: boolean;
  /**
   * Run only the tasks whose id hashes to this shard, filling the execution
   * cache and writing no table: a later unsharded run over the merged caches
   * executes nothing and writes the tables.
   */
  shard?: Shard;
}

/** One validation count. */
export interface GateCount {
  gate: string;
  source: string;
  count: number;
}

/** What {@link runOracleStage} wrote and counted. */
export interface OracleStageResult {
  runtime: string;
  timeoutMs: number;
  validation: GateCount[];
  rejects: number;
  rejectSummary: string;
  run: RunSuitesReport;
  tables: Record<string, string>;
  /** The shard run (tasks it took), when sharded: then no table is written. */
  shard?: Shard & { tasks: number };
}

function firstBad(outcomes: readonly TestOutcome[]): string {
  const i = outcomes.findIndex((o) => o.outcome !== "pass");
  return i < 0 ? "no tests" : `test ${i} ${outcomes[i].outcome}`;
}

function differs(a: readonly TestOutcome[], b: readonly TestOutcome[]): string | null {
  if (a.length !== b.length) return `${a.length} vs ${b.length} outcomes`;
  for (let i = 0; i < a.length; i++) {
    if (a[i].outcome !== b[i].outcome) return `test ${i} ${a[i].outcome} vs ${b[i].outcome}`;
  }
  return null;
}

/**
 * The canonical gate: why a task is rejected (its gate and reject reason), or
 * null when its canonical passed every test the same way twice. Both the
 * candidate rounds and the gate counts ask this, so they cannot disagree.
 */
function canonicalGate(
  first: readonly TestOutcome[],
  second: readonly TestOutcome[],
): { gate: string; reason: string } | null {
  if (!allPass(first)) {
    return { gate: "canonical_fail", reason: `canonical_fails: ${firstBad(first)}` };
  }
  const flaky = differs(first, second);
  if (flaky !== null) {
    return { gate: "canonical_flaky", reason: `flaky_canonical: ${flaky} between two runs` };
  }
  return null;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Whether a candidate's outcomes verify it as a distractor: it fails a test,
 * by its own behaviour. One whose run tampered (ERROR:Tamper) failed because
 * the sandbox refused it, which says nothing of its bug: it is rejected
 * (gate `tampered`), and the rounds do not count it either.
 */
function verifiedDistractor(outcomes: readonly TestOutcome[]): boolean {
  return !allPass(outcomes) && !tampered(outcomes);
}

/** The oracle's inputs, checked: tasks by id, each task's mutants in seeded order, rejects. */
interface OracleInputs {
  tasks: TaskRow[];
  mutantsByTask: Map<string, MutantRow[]>;
  rejects: Reject[];
}

/** Each task's canonical runs (twice) and the candidates that ran, by snippet id. */
interface SuiteRuns {
  canonical: Map<string, [SuiteResult, SuiteResult]>;
  candidate: Map<string, SuiteResult>;
}

/**
 * Execute every canonical (twice) and the candidate mutants, apply the gates,
 * and write `executions`, `queries`, `corpus`, `validation` and the oracle's
 * rejects. A canonical failing any test or differing between its two runs
 * rejects its task; a candidate passing every test is an equivalent mutant
 * and is dropped, and so is one whose run tampered (ERROR:Tamper, gate
 * `tampered`); a candidate failing only by TIMEOUT is kept but flagged. Up
 * to `maxDistractors` verified candidates per task are kept, lowest `order`
 * first; candidates after a task's last kept one are not executed at all
 * (gate `not_needed`), which leaves the kept set unchanged. A candidate's
 * suite stops at its first TIMEOUT, the rest of its tests NOT_RUN (gate
 * `stopped_at_timeout`); canonicals run every test.
 *
 * Three steps: {@link runTaskSuites} schedules the suites, {@link gateTasks}
 * decides from their outcomes alone (pure), and the tables are written here.
 */
export async function runOracleStage(options: OracleStageOptions = {}): Promise<OracleStageResult> {
  const runtime = options.runtime ?? "pyodide";
  const timeoutMs = options.timeoutMs ?? 1000;
  const maxDistractors = options.maxDistractors ?? MAX_DISTRACTORS;
  const inputs = await readOracleInputs();
  const { tasks, mutantsByTask } = inputs;

  const runner = await SuiteRunner.open({
    runtime,
    workers: options.workers,
    timeoutMs,
    quiet: options.quiet,
  });
  // A shard runs the same per-task logic on its own tasks: a task's candidate
  // rounds depend only on that task's results, so the union of the shards'
  // caches holds exactly the suites of an unsharded run.
  const shard = options.shard;
  const mine = shard ? tasks.filter((t) => inShard(t.task_id, shard)) : tasks;
  let runs: SuiteRuns;
  let poolStats: RunSuitesReport["pool"];
  try {
    runs = await runTaskSuites(runner, mine, mutantsByTask, maxDistractors);
    poolStats = await runner.poolStats();
  } finally {
    await runner.close();
  }
  const report: RunSuitesReport = { ...runner.report(), pool: poolStats };
  if (shard) {
    return {
      runtime: report.runtime,
      timeoutMs,
      validation: [],
      rejects: 0,
      rejectSummary: "no tables written (shard run)",
      run: report,
      tables: {},
      shard: { ...shard, tasks: mine.length },
    };
  }

  const gated = gateTasks(inputs, runs, maxDistractors);
  const { executions, times } = executionRows(inputs, runs, report.runtime);
  const metadata = { runtime: report.runtime, timeout_ms: String(timeoutMs) };
  const tables: Record<string, string> = {
    executions: await writeTable("executions", executions, EXECUTIONS, { metadata }),
    execution_times: await writeTable("execution_times", times, EXECUTION_TIMES, { metadata }),
    queries: await writeTable("queries", gated.queries, QUERIES, { metadata }),
    corpus: await writeTable("corpus", gated.corpus, CORPUS, { metadata }),
    validation: await writeTable(
      "validation",
      gated.validation as unknown as Record<string, unknown>[],
      VALIDATION,
      { metadata },
    ),
  };
  await writeRejects("oracle", gated.rejects);
  return {
    runtime: report.runtime,
    timeoutMs,
    validation: gated.validation,
    rejects: gated.rejects.length,
    rejectSummary: summarizeRejects(gated.rejects),
    run: report,
    tables,
  };
}

/** Read tasks and mutants; a mutant without code or task is a reject, a task without a canonical an error. */
async function readOracleInputs(): Promise<OracleInputs> {
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

/**
 * Each task runs its canonical twice (the flakiness gate), then, if it
 * passes, its candidates in their seeded order, never more at once than it
 * still lacks verified distractors: the kept distractors are exactly those of
 * running every candidate, but candidates after a task's last kept one never
 * run. Tasks go independently, each taking its next candidate as soon as a
 * result comes back, so the workers never wait for a slow round to finish.
 * Candidates stop at their first TIMEOUT (NOT_RUN after it): they already
 * fail, and waiting out a loop on every test was most of the oracle's time.
 */
async function runTaskSuites(
  runner: SuiteRunner,
  tasks: readonly TaskRow[],
  mutantsByTask: ReadonlyMap<string, MutantRow[]>,
  maxDistractors: number,
): Promise<SuiteRuns> {
  const canonical = new Map<string, [SuiteResult, SuiteResult]>();
  const candidate = new Map<string, SuiteResult>();
  await Promise.all(tasks.map(async (t) => {
    const setup = t.setup ?? "";
    const tests = t.tests ?? [];
    const job = { setup, code: t.canonical, tests };
    const pair = await Promise.all([
      runner.run({ ...job, rep: 0 }),
      runner.run({ ...job, rep: 1 }),
    ]);
    canonical.set(t.task_id, pair);
    if (canonicalGate(pair[0].outcomes, pair[1].outcomes) !== null) return;
    const muts = mutantsByTask.get(t.task_id) ?? [];
    let at = 0;
    let verified = 0;
    let inFlight = 0;
    await new Promise<void>((resolve, reject) => {
      const launch = () => {
        while (verified + inFlight < maxDistractors && at < muts.length) {
          const m = muts[at++];
          inFlight++;
          runner.run({ setup, code: m.code, tests, stopAtTimeout: true }).then((r) => {
            inFlight--;
            candidate.set(m.snippet_id, r);
            if (verifiedDistractor(r.outcomes)) verified++;
            launch();
          }, reject);
        }
        if (inFlight === 0) resolve();
      };
      launch();
    });
  }));
  return { canonical, candidate };
}

/**
 * The gates, from the suites' outcomes alone: which tasks are kept (their
 * canonical passed the same way twice), which candidates become distractors,
 * the `queries` and `corpus` rows, the gate counts and the rejects, all in a
 * fixed order whatever order the suites finished in.
 */
function gateTasks(
  inputs: OracleInputs,
  runs: SuiteRuns,
  maxDistractors: number,
): {
  queries: Record<string, unknown>[];
  corpus: Record<string, unknown>[];
  validation: GateCount[];
  rejects: Reject[];
} {
  const { tasks, mutantsByTask } = inputs;
  const rejects = [...inputs.rejects];
  const outcomesOf = new Map([...runs.candidate].map(([id, r]) => [id, r.outcomes]));
  const counts = new Map<string, number>();
  const count = (gate: string, source: string, n = 1) => {
    for (const s of [source, "all"]) {
      const key = `${gate}\u0000${s}`;
      counts.set(key, (counts.get(key) ?? 0) + n);
    }
  };
  const queries: Record<string, unknown>[] = [];
  const corpus: Record<string, unknown>[] = [];
  for (const t of tasks) {
    const src = t.source;
    const muts = mutantsByTask.get(t.task_id) ?? [];
    count("tasks_in", src);
    count("candidates_in", src, muts.length);
    const [first, second] = runs.canonical.get(t.task_id)!;
    const failed = canonicalGate(first.outcomes, second.outcomes);
    if (failed) {
      count(failed.gate, src);
      rejects.push({ stage: "oracle", source: src, locator: t.task_id, reason: failed.reason });
      continue;
    }
    count("canonical_pass", src);
    count("candidates_of_kept_tasks", src, muts.length);
    const kept: { m: MutantRow; timeoutOnly: boolean }[] = [];
    for (const m of muts) {
      const outcomes = outcomesOf.get(m.snippet_id);
      if (!outcomes) {
        count("not_needed", src);
        rejects.push({
          stage: "oracle",
          source: src,
          locator: m.snippet_id,
          reason:
            `not_needed: ${maxDistractors} distractors verified before it in the seeded order`,
        });
        continue;
      }
      if (allPass(outcomes)) {
        count("equivalent", src);
        rejects.push({
          stage: "oracle",
          source: src,
          locator: m.snippet_id,
          reason: "equivalent_mutant: passes every test",
        });
        continue;
      }
      if (tampered(outcomes)) {
        count("tampered", src);
        rejects.push({
          stage: "oracle",
          source: src,
          locator: m.snippet_id,
          reason:
            "tampered: its run reached for the harness or changed shared state (ERROR:Tamper)",
        });
        continue;
      }
      count("verified", src);
      if (!complete(outcomes)) count("stopped_at_timeout", src);
      const flagged = timeoutOnly(outcomes);
      if (flagged) count("verified_timeout_only", src);
      kept.push({ m, timeoutOnly: flagged });
    }
    count("tasks_kept", src);
    count(`tasks_with_distractors:${kept.length}`, src);
    count("distractors_kept", src, kept.length);
    for (const k of kept) {
      count(`bug_type:${k.m.bug_type}`, src);
      if (k.timeoutOnly) count("distractors_timeout_only", src);
    }
    const correctId = `${t.task_id}#c`;
    queries.push({
      query_id: t.task_id,
      task_id: t.task_id,
      source: src,
      domain: t.domain,
      query: t.query,
      entry_point: t.entry_point,
      tests: t.tests ?? [],
      correct_ids: [correctId],
      distractor_ids: kept.map((k) => k.m.snippet_id),
    });
    corpus.push({
      corpus_id: correctId,
      task_id: t.task_id,
      source: src,
      domain: t.domain,
      label: "correct",
      bug_type: null,
      operator: null,
      line: null,
      before: null,
      after: null,
      timeout_only: false,
      code: t.canonical,
      code_sha256: sha256Hex(t.canonical),
    });
    for (const { m, timeoutOnly: flagged } of kept) {
      corpus.push({
        corpus_id: m.snippet_id,
        task_id: t.task_id,
        source: src,
        domain: t.domain,
        label: "incorrect",
        bug_type: m.bug_type,
        operator: m.operator,
        line: m.line,
        before: m.before,
        after: m.after,
        timeout_only: flagged,
        code: m.code,
        code_sha256: m.code_sha256,
      });
    }
  }
  // Every distractor-count bucket appears, even when empty.
  for (let n = 0; n <= maxDistractors; n++) count(`tasks_with_distractors:${n}`, "all", 0);
  queries.sort((a, b) => byString(a.query_id as string, b.query_id as string));
  corpus.sort((a, b) =>
    byString(a.task_id as string, b.task_id as string) ||
    byString(a.corpus_id as string, b.corpus_id as string)
  );
  const validation: GateCount[] = [...counts.entries()].map(([key, n]) => {
    const [gate, source] = key.split("\u0000");
    return { gate, source, count: n };
  }).sort((a, b) => byString(a.source, b.source) || byString(a.gate, b.gate));
  rejects.sort((a, b) => byString(a.locator, b.locator) || byString(a.reason, b.reason));
  return { queries, corpus, validation, rejects };
}

/**
 * `executions` and `execution_times`: one row per (suite, test) of each first
 * run, deduplicated, taken in a fixed order (canonicals, then candidates by
 * task and seeded order, so the first of two equal suites is the one written)
 * and sorted by suite and test.
 */
function executionRows(
  inputs: OracleInputs,
  runs: SuiteRuns,
  runtime: string,
): { executions: Record<string, unknown>[]; times: Record<string, unknown>[] } {
  const { tasks, mutantsByTask } = inputs;
  const executedOrder: SuiteResult[] = [
    ...tasks.map((t) => runs.canonical.get(t.task_id)![0]),
    ...tasks.flatMap((t) =>
      (mutantsByTask.get(t.task_id) ?? []).flatMap((m) => runs.candidate.get(m.snippet_id) ?? [])
    ),
  ];
  const executions: Record<string, unknown>[] = [];
  const times: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const r of executedOrder) {
    const key = `${r.codeSha}:${r.testsSha}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const [index, o] of r.outcomes.entries()) {
      const row = { code_sha256: r.codeSha, tests_sha256: r.testsSha, runtime, test_index: index };
      executions.push({ ...row, outcome: o.outcome });
      times.push({ ...row, ms: o.ms });
    }
  }
  const bySuiteAndTest = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    byString(a.code_sha256 as string, b.code_sha256 as string) ||
    byString(a.tests_sha256 as string, b.tests_sha256 as string) ||
    (a.test_index as number) - (b.test_index as number);
  executions.sort(bySuiteAndTest);
  times.sort(bySuiteAndTest);
  return { executions, times };
}
