import { allPass, NOT_RUN, type TestOutcome } from "../oracle/outcome.ts";
import type { RerankerOptions } from "./reranker.ts";
import { type RerankCost, type RerankedQuery, type Reranker, zeroCost } from "./reranker.ts";

/**
 * Stable partition: the candidates that passed first, then the rest, each
 * group in its base order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(passersFirst(["a", "b", "c"], [false, true, false]), ["b", "a", "c"]);
 * ```
 */
export function passersFirst<T>(candidates: readonly T[], passed: readonly boolean[]): T[] {
  if (candidates.length !== passed.length) {
    throw new Error(`passersFirst: ${candidates.length} candidates, ${passed.length} outcomes`);
  }
  return [
    ...candidates.filter((_, i) => passed[i]),
    ...candidates.filter((_, i) => !passed[i]),
  ];
}

/** The cost of one suite's outcomes: one suite, the tests that ran, their time. */
export function suiteCost(outcomes: readonly TestOutcome[]): RerankCost {
  const ran = outcomes.filter((o) => o.outcome !== NOT_RUN);
  return {
    ...zeroCost(),
    suites: 1,
    tests: ran.length,
    oracle_seconds: ran.reduce((s, o) => s + o.ms, 0) / 1000,
  };
}

/** Sum two costs. */
export function addCost(a: RerankCost, b: RerankCost): RerankCost {
  return {
    suites: a.suites + b.suites,
    tests: a.tests + b.tests,
    oracle_seconds: a.oracle_seconds + b.oracle_seconds,
    api_calls: a.api_calls + b.api_calls,
    tokens: a.tokens + b.tokens,
  };
}

/**
 * The `exec` reranker: each of the base's top-k candidates runs against the
 * query's visible tests (code, then setup, then each test, as the oracle
 * runs it; a suite stops at its first TIMEOUT, which already fails it), and
 * the candidates passing every visible test move to the front, each group in
 * base order. A query without visible tests keeps its base order at no
 * cost. Score: 1 for a passing candidate, 0 otherwise. Cost: one suite per
 * candidate and the tests that ran, whether or not the cache served them.
 */
export function execReranker(
  options: Pick<RerankerOptions, "runSuite"> & { window?: number },
): Reranker {
  const run = options.runSuite;
  if (!run) throw new Error("exec reranker: no suite runner given");
  return {
    name: "exec",
    kind: "exec",
    async rerank(input) {
      // A window of queries in flight, not all of them: the oracle pool's
      // queue is an array it shifts jobs off, so queueing every query's
      // suites at once (~200k at 10x the default benchmark) made each shift
      // O(queue) and the stage O(n²); it also held every pending job in memory.
      const queries = await mapInWindow(
        input.queries,
        options.window ?? EXEC_WINDOW,
        async (q): Promise<RerankedQuery> => {
          const base = q.rankings[0] ?? [];
          if (q.visible_tests.length === 0) {
            return {
              query_id: q.query_id,
              order: base.map((c) => ({ corpus_id: c.corpus_id, score: 0 })),
              cost: zeroCost(),
            };
          }
          const results = await Promise.all(
            base.map((c) =>
              run({ task_id: q.task_id, setup: q.setup, code: c.code, tests: q.visible_tests })
            ),
          );
          const passed = results.map((r) => allPass(r.outcomes));
          const cost = results.reduce((s, r) => addCost(s, suiteCost(r.outcomes)), zeroCost());
          const scored = base.map((c, i) => ({ corpus_id: c.corpus_id, score: passed[i] ? 1 : 0 }));
          return { query_id: q.query_id, order: passersFirst(scored, passed), cost };
        },
      );
      return { queries };
    },
  };
}

/**
 * Queries an exec reranker has in flight at once: with ten candidates each,
 * about 2,500 suites, enough to keep every pool worker's batches full.
 */
export const EXEC_WINDOW = 256;

/**
 * `items.map(fn)` awaited, with at most `window` calls pending at a time;
 * results in input order. Each of `window` lanes takes the next item as
 * its last one settles, so one slow item holds up only its own lane.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(await mapInWindow([1, 2, 3], 2, (x) => Promise.resolve(x * 10)), [10, 20, 30]);
 * ```
 */
export async function mapInWindow<T, R>(
  items: readonly T[],
  window: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!(window >= 1)) throw new Error(`mapInWindow: window must be >= 1, got ${window}`);
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, items.length) }, lane));
  return out;
}
