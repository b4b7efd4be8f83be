/** A released metric name split into family and cutoff: "exec@10" → exec, 10. */
export interface MetricKey {
  name: string;
  family: string;
  k: number;
}

/** The metric families the release reports and the kit recomputes. */
export const RECOMPUTABLE = ["exec", "precision", "ndcg", "exec_ndcg_gap"] as const;

/**
 * Parse a released metric name, or null when it is not `<family>@<k>` with a
 * family the kit recomputes.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   metricKey("exec_ndcg_gap@5"),
 *   { name: "exec_ndcg_gap@5", family: "exec_ndcg_gap", k: 5 },
 * );
 * deepStrictEqual(
 *   metricKey("execution_precision@1"),
 *   { name: "execution_precision@1", family: "precision", k: 1 },
 * );
 * ```
 */
export function metricKey(name: string): MetricKey | null {
  const m = /^([a-z_]+)@(\d+)$/.exec(name);
  if (!m) return null;
  const family = RELEASED_ALIASES[m[1]] ?? m[1];
  if (!(RECOMPUTABLE as readonly string[]).includes(family)) return null;
  return { name, family, k: Number(m[2]) };
}

/**
 * Other names the release gives a family: `tests/pairwise_tests.json` calls
 * precision@k `execution_precision@k` (tests/README.md), the results files
 * `precision@k`.
 */
const RELEASED_ALIASES: Record<string, string> = { execution_precision: "precision" };
