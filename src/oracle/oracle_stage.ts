import { writeTable } from "../io/arrow_table.ts";
import { summarizeRejects, writeRejects } from "../tables/rejects.ts";
import {
  CORPUS,
  EXECUTION_TIMES,
  EXECUTIONS,
  LIMIT_MARGINS,
  QUERIES,
  VALIDATION,
} from "../tables/schema.ts";
import { limitMargins } from "./limit_margins.ts";
import type { Runtime } from "./pool.ts";
import { type RunSuitesReport, SuiteRunner } from "./run_suites.ts";
import { inShard, type Shard } from "../common/shard.ts";
import { type GateCount, gateTasks, type SuiteRuns } from "./gates.ts";
import { readOracleInputs } from "./oracle_inputs.ts";
import { executionRows, runTaskSuites } from "./task_suites.ts";

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
    limit_margins: await writeTable(
      "limit_margins",
      limitMargins(
        tasks.map((t) => ({ ...t, setup: t.setup ?? "", code: t.canonical, tests: t.tests ?? [] })),
        times,
        executions,
        timeoutMs,
      ),
      LIMIT_MARGINS,
      { metadata },
    ),
    queries: await writeTable("queries", gated.queries, QUERIES, { metadata }),
    corpus: await writeTable("corpus", gated.corpus, CORPUS, { metadata }),
    validation: await writeTable("validation", gated.validation, VALIDATION, { metadata }),
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
