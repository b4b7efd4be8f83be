/**
 * Which canonicals come close to the per-test time limit. The limit counts
 * CPU time, so a verdict no longer moves with the machine's load; what is
 * left is a test whose own CPU time is near the limit, where the kernel's
 * accounting (10 ms ticks) or a slower machine could tip it. The table lists
 * every task whose canonical's slowest test used more than a tenth of the
 * limit: ten times the slowdown it would take to reach it, the scale of what
 * a busy machine did to wall-clock times (a 110 ms test recorded TIMEOUT at
 * 1,000 ms). A canonical past the limit is listed too: its task was dropped
 * for time.
 *
 * @module
 */
import type { RowOf } from "../io/arrow_table.ts";
import type { EXECUTION_TIMES, EXECUTIONS, LIMIT_MARGINS } from "../tables/schema.ts";
import { suiteCodeSha, testsSha } from "./cache.ts";

/** A task's canonical suite, as the oracle ran it. */
export interface CanonicalSuite {
  task_id: string;
  setup: string;
  code: string;
  tests: readonly string[];
}

/** A canonical is listed when its slowest test used more than this share of the limit. */
export const MARGIN_SHARE = 0.1;

/**
 * `limit_margins` rows: for each canonical whose slowest test (by CPU time,
 * else wall time where CPU was not measured) used more than
 * {@link MARGIN_SHARE} of `limitMs`, that test; the nearest the limit first.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { limitMargins } from "./limit_margins.ts";
 * import { suiteCodeSha, testsSha } from "./cache.ts";
 * const suite = { task_id: "t/1", setup: "", code: "def f(): pass\n", tests: ["f()", "f()"] };
 * const row = { code_sha256: suiteCodeSha("", suite.code), tests_sha256: testsSha(suite.tests), runtime: "r" };
 * const rows = limitMargins(
 *   [suite],
 *   [{ ...row, test_index: 0, ms: 30, cpu_ms: 20 }, { ...row, test_index: 1, ms: 400, cpu_ms: 150 }],
 *   [{ ...row, test_index: 0, outcome: "pass" }, { ...row, test_index: 1, outcome: "pass" }],
 *   1000,
 * );
 * deepStrictEqual(rows, [
 *   { task_id: "t/1", test_index: 1, outcome: "pass", cpu_ms: 150, ms: 400, limit_ms: 1000, share: 0.15 },
 * ]);
 * ```
 */
export function limitMargins(
  canonicals: readonly CanonicalSuite[],
  times: readonly RowOf<typeof EXECUTION_TIMES>[],
  executions: readonly RowOf<typeof EXECUTIONS>[],
  limitMs: number,
): RowOf<typeof LIMIT_MARGINS>[] {
  const key = (code: string, tests: string, i: number) => `${code}:${tests}:${i}`;
  const outcomes = new Map(
    executions.map((e) => [key(e.code_sha256, e.tests_sha256, e.test_index), e.outcome]),
  );
  const bySuite = new Map<string, RowOf<typeof EXECUTION_TIMES>[]>();
  for (const t of times) {
    const suite = `${t.code_sha256}:${t.tests_sha256}`;
    const list = bySuite.get(suite) ?? [];
    list.push(t);
    bySuite.set(suite, list);
  }
  const used = (t: RowOf<typeof EXECUTION_TIMES>) => t.cpu_ms ?? t.ms;
  const rows: RowOf<typeof LIMIT_MARGINS>[] = [];
  for (const c of canonicals) {
    const codeSha = suiteCodeSha(c.setup, c.code);
    const tSha = testsSha(c.tests);
    const list = bySuite.get(`${codeSha}:${tSha}`) ?? [];
    if (list.length === 0) continue;
    const slowest = list.reduce((a, b) => (used(b) > used(a) ? b : a));
    const share = used(slowest) / limitMs;
    if (share <= MARGIN_SHARE) continue;
    rows.push({
      task_id: c.task_id,
      test_index: slowest.test_index,
      outcome: outcomes.get(key(codeSha, tSha, slowest.test_index)) ?? "NOT_RUN",
      cpu_ms: slowest.cpu_ms,
      ms: slowest.ms,
      limit_ms: limitMs,
      share: Math.round(share * 1e4) / 1e4,
    });
  }
  return rows.sort((a, b) => b.share - a.share || (a.task_id < b.task_id ? -1 : 1));
}
