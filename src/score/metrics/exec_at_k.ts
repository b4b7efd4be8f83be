import type { RankingsMetric, ScoresMetric } from "./metric.ts";

/**
 * exec@k: 1 when at least one snippet that passes the query's tests (one of
 * its correct ids) is among the first k results, else 0. Its mean over
 * queries is the paper's headline number. A ranking shorter than k (a pool
 * smaller than k) is read as far as it goes.
 *
 * `relevant[i]` says whether the result at rank i + 1 is correct.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(exec_at_k([false, true, false], 1), 0);
 * strictEqual(exec_at_k([false, true, false], 3), 1);
 * ```
 */
export function exec_at_k(relevant: readonly boolean[], k: number): number {
  const n = Math.min(k, relevant.length);
  for (let i = 0; i < n; i++) if (relevant[i]) return 1;
  return 0;
}

/**
 * Tie-aware (expected) exec@1: the probability that a correct snippet is
 * first when the documents tied at the top score are ordered uniformly at
 * random — the number of correct ones among them over how many there are.
 * Equals exec@1 whenever the top score is not tied, and does not depend on
 * the tie-break.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(expected_exec_at_1(4, 1), 0.25); // one correct among four tied at the top
 * ```
 */
export function expected_exec_at_1(tiedAtTop: number, correctTiedAtTop: number): number {
  if (tiedAtTop <= 0) throw new Error("expected_exec_at_1: no document at the top");
  return correctTiedAtTop / tiedAtTop;
}

/** Registry entry of exec@k. */
export const EXEC_METRIC: RankingsMetric = {
  name: "exec",
  at: "each_k",
  label: "exec@k",
  description: "A snippet that passes the query's tests is among the first k results.",
  better: "higher",
  leaderboard: true,
  recomputable: true,
  value: (q, k) => exec_at_k(q.relevant, k),
};

/** Registry entry of the tie-aware exec@1 (needs the scores tied at the top). */
export const EXPECTED_EXEC_METRIC: ScoresMetric = {
  name: "expected_exec",
  at: 1,
  label: "tie-aware exec@1",
  description: "Chance that a correct snippet is first when ties at the top are broken at random.",
  better: "higher",
  leaderboard: false,
  recomputable: false,
  value: (q) => expected_exec_at_1(q.tiedAtTop, q.correctTiedAtTop),
};
