import { allPass, NOT_RUN, type TestOutcome } from "../oracle/outcome.ts";
import type { RerankerOptions } from "./reranker.ts";
import {
  type ExecJob,
  type RerankCost,
  type RerankedQuery,
  type Reranker,
  type RunSuite,
  zeroCost,
} from "./reranker.ts";

export type { ExecJob, RunSuite };

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
export function execReranker(options: Pick<RerankerOptions, "runSuite">): Reranker {
  const run = options.runSuite;
  if (!run) throw new Error("exec reranker: no suite runner given");
  return {
    name: "exec",
    kind: "exec",
    async rerank(input) {
      const queries = await Promise.all(input.queries.map(async (q): Promise<RerankedQuery> => {
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
      }));
      return { queries };
    },
  };
}
