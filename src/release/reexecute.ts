import { AUDIT_EXECUTIONS, type ExecutionComparison } from "../tables/release.ts";
import type { OraclePool } from "../oracle/pool.ts";
import { type AuditRow, exactCountRow } from "./audit_row.ts";
import { cacheEntryFor, kitOutcome, type TestsHashRule } from "./cache_keys.ts";
import type { Bundle } from "./read_bundle.ts";

/** The `audit_executions` table and its row (specs in src/tables/release.ts). */
export { AUDIT_EXECUTIONS, type ExecutionComparison };

/**
 * Re-execute every released canonical and paired distractor against its
 * query's released test suite in the kit's sandbox, and compare each test's
 * outcome with the released execution cache. Only the own-task pairs are
 * re-executed: they are what the benchmark's verification rests on (a
 * canonical passes, a distractor fails); the cache's other pairs (snippets of
 * other tasks ranked in a query's top 10) fail by NameError on both sides.
 * `only` restricts the run to some query ids.
 */
export async function reexecute(
  bundle: Bundle,
  rule: TestsHashRule,
  pool: OraclePool,
  onDone: (n: number) => void = () => {},
  only?: ReadonlySet<string>,
): Promise<ExecutionComparison[]> {
  const jobs: Promise<ExecutionComparison[]>[] = [];
  for (const q of bundle.queries) {
    if (only && !only.has(q.query_id)) continue;
    for (const id of [...q.correct_corpus_ids, ...q.paired_distractor_corpus_ids]) {
      const snippet = bundle.corpus.get(id)!;
      const released = cacheEntryFor(bundle, rule, snippet.code, q.test_suite)?.outcomes;
      jobs.push(
        pool.run({ setup: "", code: snippet.code, tests: q.test_suite }).then((outcomes) => {
          onDone(1);
          return outcomes.map((o, i) => ({
            query_id: q.query_id,
            corpus_id: id,
            label: snippet.label,
            bug_type: snippet.bug_type,
            test_index: i,
            released: released?.[i] ?? null,
            recomputed: o.outcome,
            match: released !== undefined && kitOutcome(released[i]) === o.outcome,
            runtime: pool.runtime,
          }));
        }),
      );
    }
  }
  return (await Promise.all(jobs)).flat();
}

/** Summary rows of a re-execution for the `audit` table. */
export function reexecutionRows(
  rows: readonly ExecutionComparison[],
  runtime: string,
  locator: string,
): AuditRow[] {
  const bySnippet = new Map<string, ExecutionComparison[]>();
  for (const r of rows) {
    const key = `${r.query_id}\u0000${r.corpus_id}`;
    bySnippet.set(key, [...bySnippet.get(key) ?? [], r]);
  }
  let verdicts = 0;
  for (const tests of bySnippet.values()) {
    const released = tests.every((t) => t.released === "pass");
    const ours = tests.every((t) => t.recomputed === "pass");
    if (tests.every((t) => t.released !== null) && released === ours) verdicts++;
  }
  const row = (quantity: string, expected: number, found: number): AuditRow =>
    exactCountRow("executions", runtime, quantity, expected, found, locator);
  return [
    row("re-executed test outcomes agreeing", rows.length, rows.filter((r) => r.match).length),
    row("re-executed suite verdicts agreeing", bySnippet.size, verdicts),
  ];
}
