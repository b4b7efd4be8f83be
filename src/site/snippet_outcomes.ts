/**
 * The explorer's site table `outcomes`: every pool snippet's test outcomes
 * under its corpus id.
 *
 * @module
 */
import * as arrow from "apache-arrow";
import { checkedRowsOf, tableFromRows, type TableSpec, toIpcStream } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import {
  CORPUS,
  type CorpusRow,
  EXECUTION_TIMES,
  type ExecutionRow,
  EXECUTIONS,
  type ExecutionTimeRow,
  type TaskRow,
  TASKS,
} from "../tables/schema.ts";
import { SNIPPET_OUTCOMES, type SnippetOutcomeRow } from "../tables/outcomes.ts";
// The explorer joins executions to snippets by the oracle's own suite key.
import { suiteCodeSha, testsSha } from "../oracle/cache.ts";
import { siteTable } from "./table_source.ts";
import { tableBytes } from "./table_bytes.ts";

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

/** Arrow stream bytes of the outcomes table. */
export async function snippetOutcomesStream(): Promise<Uint8Array> {
  const rows = async <S extends TableSpec>(name: string, spec: S, bytes?: Uint8Array) =>
    checkedRowsOf(arrow.tableFromIPC(bytes ?? await siteTable(name)), spec, tablePath(name));
  const outcomes = snippetOutcomes(
    await rows("tasks", TASKS),
    await rows("corpus", CORPUS),
    await rows("executions", EXECUTIONS),
    // Timings are optional: a run imported from elsewhere may have none.
    await rows(
      "execution_times",
      EXECUTION_TIMES,
      await tableBytes("execution_times", EXECUTION_TIMES),
    ),
  );
  return toIpcStream(tableFromRows(outcomes, SNIPPET_OUTCOMES));
}
