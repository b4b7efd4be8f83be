import { exec_at_k } from "../metrics/exec_at_k.ts";
import { exec_ndcg_gap, ndcg_at_k } from "../metrics/ndcg_at_k.ts";
import { precision_at_k } from "../metrics/precision_at_k.ts";
import type { Bundle, ReleasedRun } from "./read_bundle.ts";

/** A released metric name split into family and cutoff: "exec@10" → exec, 10. */
export interface MetricKey {
  name: string;
  family: string;
  k: number;
}

/** The metric families the audit can recompute from released rankings. */
export const RECOMPUTABLE = ["exec", "precision", "ndcg", "exec_ndcg_gap"] as const;

/**
 * Parse a released metric name, or null when it is not `<family>@<k>` with a
 * family the audit recomputes.
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

/**
 * One model's per-query values of a metric, recomputed from its released top
 * results with the kit's metric functions, in query-id order (code units, as
 * the stats stage orders queries before resampling), so that two models'
 * vectors are paired query by query and the seeded bootstrap draws the same
 * queries the stats stage would.
 *
 * A result is relevant when it passes all the query's tests, the release's
 * own execution verdict (`passes_all_tests`); the ideal ranking for nDCG has
 * as many relevant results as the query has correct ids.
 */
export function perQueryValues(bundle: Bundle, run: ReleasedRun, key: MetricKey): number[] {
  const byQuery = new Map(run.per_query.map((p) => [p.query_id, p]));
  return queriesInIdOrder(bundle).map((q) => {
    const ranking = byQuery.get(q.query_id)!;
    const relevant = ranking.top_results.map((r) => r.passes_all_tests);
    const nRelevant = q.correct_corpus_ids.length;
    switch (key.family) {
      case "exec":
        return exec_at_k(relevant, key.k);
      case "precision":
        return precision_at_k(relevant, key.k);
      case "ndcg":
        return ndcg_at_k(relevant, key.k, nRelevant);
      case "exec_ndcg_gap":
        return exec_ndcg_gap(relevant, key.k, nRelevant);
      default:
        throw new Error(`perQueryValues: cannot recompute ${key.name}`);
    }
  });
}

const sorted = new WeakMap<Bundle, Bundle["queries"]>();

/** The bundle's queries sorted by id in UTF-16 code-unit order. */
export function queriesInIdOrder(bundle: Bundle): Bundle["queries"] {
  let q = sorted.get(bundle);
  if (!q) {
    q = [...bundle.queries].sort((a, b) =>
      a.query_id < b.query_id ? -1 : a.query_id > b.query_id ? 1 : 0
    );
    sorted.set(bundle, q);
  }
  return q;
}

/** Arithmetic mean (0 for no values); the aggregate every released metric is. */
export function meanOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
