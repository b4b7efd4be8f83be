import type { ExecJob, RunSuite } from "./reranker.ts";

/** What the guard saw: the (snippet, test) pairs it let through. */
export interface GuardLog {
  /** (snippet, test) pairs run, counted once per request (cached or not). */
  pairs: number;
  /** Hidden tests jobs asked for (each such job is refused, nothing of it runs): 0 in a sound run. */
  hidden: number;
  /** Every test statement run, per task (for the tests' own checks). */
  ran: Map<string, Set<string>>;
}

/**
 * Wrap a suite runner so that it runs only visible tests: every test
 * statement of every job must be among its task's visible tests and not
 * among the hidden ones, else the job is refused (the error names the task
 * and the test) before anything runs. The log counts the pairs it let
 * through; a statement that is both visible and hidden (a suite repeating a
 * visible test's text) counts as visible, since running it reveals nothing.
 */
export function guardVisibleOnly(
  inner: RunSuite,
  split: ReadonlyMap<string, { visible: readonly string[]; hidden: readonly string[] }>,
): { run: RunSuite; log: GuardLog } {
  const log: GuardLog = { pairs: 0, hidden: 0, ran: new Map() };
  const sets = new Map(
    [...split].map((
      [task, s],
    ) => [task, { visible: new Set(s.visible), hidden: new Set(s.hidden) }]),
  );
  const run: RunSuite = (job: ExecJob) => {
    const s = sets.get(job.task_id);
    if (!s) return Promise.reject(new Error(`hidden-test guard: task ${job.task_id} has no split`));
    for (const test of job.tests) {
      if (!s.visible.has(test)) {
        if (s.hidden.has(test)) log.hidden++;
        return Promise.reject(
          new Error(
            `hidden-test guard: task ${job.task_id}: refused to run a test that is not visible: ${
              JSON.stringify(test.slice(0, 80))
            }`,
          ),
        );
      }
    }
    log.pairs += job.tests.length;
    let ran = log.ran.get(job.task_id);
    if (!ran) log.ran.set(job.task_id, ran = new Set());
    for (const t of job.tests) ran.add(t);
    return inner(job);
  };
  return { run, log };
}
