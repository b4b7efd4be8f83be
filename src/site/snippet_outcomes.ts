import type { CorpusRow, ExecutionRow, ExecutionTimeRow, TaskRow } from "../tables/schema.ts";
import type { SnippetOutcomeRow } from "../tables/outcomes.ts";

// The explorer joins executions to snippets by the oracle's own suite key.
import { suiteCodeSha, testsSha } from "../oracle/cache.ts";
export { suiteCodeSha, testsSha };

type Task = Pick<TaskRow, "task_id" | "setup" | "tests">;
type Snippet = Pick<CorpusRow, "corpus_id" | "task_id" | "code">;
type Execution = Pick<ExecutionRow, "code_sha256" | "tests_sha256" | "test_index" | "outcome">;
type ExecutionTime = Pick<ExecutionTimeRow, "code_sha256" | "tests_sha256" | "test_index" | "ms">;

/**
 * Attach each pool snippet's test outcomes to its corpus id. Executions are
 * keyed by the suite as run — sha256 of setup + code, and of the task's test
 * list — not by the snippet's own code digest, so the join needs the task's
 * setup and tests and is done here, at build time, rather than in the page.
 */
export function snippetOutcomes(
  tasks: readonly Task[],
  corpus: readonly Snippet[],
  executions: readonly Execution[],
  times: readonly ExecutionTime[] = [],
): SnippetOutcomeRow[] {
  const msOf = new Map<string, number>();
  for (const t of times) {
    const key = `${t.code_sha256}:${t.tests_sha256}:${t.test_index}`;
    if (!msOf.has(key)) msOf.set(key, t.ms);
  }
  const byTask = new Map(tasks.map((t) => [t.task_id, t]));
  // One outcome per (suite, test): a table may repeat a suite (e.g. runtimes, reruns); keep the first.
  const bySuite = new Map<string, Map<number, Execution>>();
  for (const e of executions) {
    const key = `${e.code_sha256}:${e.tests_sha256}`;
    if (!bySuite.has(key)) bySuite.set(key, new Map());
    const tests = bySuite.get(key)!;
    if (!tests.has(e.test_index)) tests.set(e.test_index, e);
  }
  const out: SnippetOutcomeRow[] = [];
  for (const s of corpus) {
    const task = byTask.get(s.task_id);
    if (!task) continue;
    const key = `${suiteCodeSha(task.setup ?? "", s.code)}:${testsSha(task.tests ?? [])}`;
    const rows = [...(bySuite.get(key)?.values() ?? [])].sort((a, b) =>
      a.test_index - b.test_index
    );
    for (const e of rows) {
      const ms = msOf.get(`${key}:${e.test_index}`) ?? null;
      out.push({ corpus_id: s.corpus_id, test_index: e.test_index, outcome: e.outcome, ms });
    }
  }
  return out;
}
