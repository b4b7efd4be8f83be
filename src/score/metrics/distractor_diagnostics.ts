import type { ScoresMetric } from "./metric.ts";

/**
 * The paper's diagnostics of how a retriever fails on near-clones: who wins
 * rank 1 when the canonical does not, whether the canonical scores below its
 * own buggy variants, by how much, and which bug types beat it.
 */

/** What is at rank 1 for one query. */
export type Rank1Outcome = "hit" | "own_distractor" | "other_task";

/**
 * Attribute rank 1: a correct snippet (hit), one of the query's own buggy
 * variants, or any other task's code (correct or not for that other task).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(rank1_outcome(false, true), "own_distractor");
 * ```
 */
export function rank1_outcome(top1Correct: boolean, top1OwnTask: boolean): Rank1Outcome {
  if (top1Correct) return "hit";
  return top1OwnTask ? "own_distractor" : "other_task";
}

/**
 * 1 when the canonical scores strictly below at least one of the query's own
 * distractors, else 0 (also 0 for a query without distractors).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(canonical_below_distractor(0.8, [0.7, 0.81]), 1);
 * ```
 */
export function canonical_below_distractor(
  canonicalScore: number,
  distractorScores: readonly number[],
): number {
  for (const s of distractorScores) if (s > canonicalScore) return 1;
  return 0;
}

/**
 * Canonical score minus the best own distractor's score (negative: a buggy
 * variant scores higher); null for a query without distractors.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * // -0.05 up to rounding:
 * strictEqual(canonical_margin(0.8, [0.7, 0.85])?.toFixed(12), "-0.050000000000");
 * ```
 */
export function canonical_margin(
  canonicalScore: number,
  distractorScores: readonly number[],
): number | null {
  if (distractorScores.length === 0) return null;
  let best = -Infinity;
  for (const s of distractorScores) if (s > best) best = s;
  return canonicalScore - best;
}

/**
 * Per bug type, the fraction of the query's own distractors of that type that
 * are ranked above the canonical (after the tie-break). Only the bug types the
 * query has appear in the result.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   outrank_share_by_bug_type([
 *     { bugType: "off_by_one", outranks: true },
 *     { bugType: "off_by_one", outranks: false },
 *   ]),
 *   new Map([["off_by_one", 0.5]]),
 * );
 * ```
 */
export function outrank_share_by_bug_type(
  distractors: readonly { bugType: string; outranks: boolean }[],
): Map<string, number> {
  const counts = new Map<string, [number, number]>();
  for (const d of distractors) {
    const c = counts.get(d.bugType) ?? [0, 0];
    c[0] += d.outranks ? 1 : 0;
    c[1] += 1;
    counts.set(d.bugType, c);
  }
  const out = new Map<string, number>();
  for (const [bt, [hit, all]] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out.set(bt, hit / all);
  }
  return out;
}

/**
 * Registry entry of miss_own_distractor: on a rank-1 miss, 1 when the winner
 * is one of the query's own distractors, 0 when it is another task's code;
 * undefined (no row) on a hit.
 */
export const MISS_OWN_DISTRACTOR_METRIC: ScoresMetric = {
  name: "miss_own_distractor",
  at: 1,
  label: "rank-1 misses to own distractors",
  description: "On a rank-1 miss, the winner is a buggy copy of the query's own task.",
  better: "lower",
  leaderboard: false,
  recomputable: false,
  value: (q) => {
    const outcome = rank1_outcome(q.relevant[0], q.top1OwnTask);
    return outcome === "hit" ? null : outcome === "own_distractor" ? 1 : 0;
  },
};

/** Registry entry of below_distractor (queries with distractors only). */
export const BELOW_DISTRACTOR_METRIC: ScoresMetric = {
  name: "below_distractor",
  at: 0,
  label: "canonical below a distractor",
  description: "The canonical scores strictly below at least one of its own distractors.",
  better: "lower",
  leaderboard: false,
  recomputable: false,
  value: (q) =>
    q.distractors.length === 0
      ? null
      : canonical_below_distractor(q.canonicalScore, q.distractors.map((d) => d.score)),
};

/** Registry entry of margin (queries with distractors only). */
export const MARGIN_METRIC: ScoresMetric = {
  name: "margin",
  at: 0,
  label: "canonical margin",
  description: "Canonical score minus its best own distractor's score.",
  better: "higher",
  leaderboard: false,
  recomputable: false,
  value: (q) => canonical_margin(q.canonicalScore, q.distractors.map((d) => d.score)),
};

/** Registry entry of the fool rates: rows `outrank:<bug_type>`, one per bug type the query has. */
export const OUTRANK_METRIC: ScoresMetric = {
  name: "outrank",
  at: 0,
  label: "fool rate",
  description: "Share of the query's own distractors of a bug type ranked above the canonical.",
  better: "lower",
  leaderboard: false,
  recomputable: false,
  value: (q) => outrank_share_by_bug_type(q.distractors),
};
