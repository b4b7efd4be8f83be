/**
 * What the oracle runs: each task's canonical twice, then its candidates in
 * seeded order until it has its distractors; and the `executions` rows of
 * what ran.
 *
 * @module
 */
import type { RowOf } from "../io/arrow_table.ts";
import type { EXECUTION_TIMES, EXECUTIONS, MutantRow, TaskRow } from "../tables/schema.ts";
import type { SuiteResult, SuiteRunner } from "./run_suites.ts";
import { canonicalGate, type SuiteRuns, verifiedDistractor } from "./gates.ts";
import { byString, type OracleInputs } from "./oracle_inputs.ts";

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
export async function runTaskSuites(
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
 * `executions` and `execution_times`: one row per (suite, test) of each first
 * run, deduplicated, taken in a fixed order (canonicals, then candidates by
 * task and seeded order, so the first of two equal suites is the one written)
 * and sorted by suite and test.
 */
export function executionRows(
  inputs: OracleInputs,
  runs: SuiteRuns,
  runtime: string,
): { executions: RowOf<typeof EXECUTIONS>[]; times: RowOf<typeof EXECUTION_TIMES>[] } {
  const { tasks, mutantsByTask } = inputs;
  const executedOrder: SuiteResult[] = [
    ...tasks.map((t) => runs.canonical.get(t.task_id)![0]),
    ...tasks.flatMap((t) =>
      (mutantsByTask.get(t.task_id) ?? []).flatMap((m) => runs.candidate.get(m.snippet_id) ?? [])
    ),
  ];
  const executions: RowOf<typeof EXECUTIONS>[] = [];
  const times: RowOf<typeof EXECUTION_TIMES>[] = [];
  const seen = new Set<string>();
  for (const r of executedOrder) {
    const key = `${r.codeSha}:${r.testsSha}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const [index, o] of r.outcomes.entries()) {
      const row = { code_sha256: r.codeSha, tests_sha256: r.testsSha, runtime, test_index: index };
      executions.push({ ...row, outcome: o.outcome });
      times.push({ ...row, ms: o.ms, cpu_ms: o.cpuMs ?? null });
    }
  }
  type SuiteTest = { code_sha256: string; tests_sha256: string; test_index: number };
  const bySuiteAndTest = (a: SuiteTest, b: SuiteTest) =>
    byString(a.code_sha256, b.code_sha256) ||
    byString(a.tests_sha256, b.tests_sha256) ||
    a.test_index - b.test_index;
  executions.sort(bySuiteAndTest);
  times.sort(bySuiteAndTest);
  return { executions, times };
}
