/**
 * Every per-query metric the kit computes, in one list (as ranx's metric
 * table): the score stage (src/score/evaluate_query.ts) and the check's
 * recomputation from rankings (src/stats/recompute.ts) iterate it, and the
 * report reads names and labels from it. Adding a metric is one file in
 * src/score/metrics/ exporting its function and its entry, plus one line here.
 *
 * The order is the order of the per_query rows: for each cutoff k, the
 * `"each_k"` entries in this order; then the fixed-k entries in this order.
 * Names in first-appearance order are the order the statistics report them.
 */
import { EXEC_METRIC, EXPECTED_EXEC_METRIC } from "./exec_at_k.ts";
import { PRECISION_METRIC } from "./precision_at_k.ts";
import { GAP_METRIC, NDCG_METRIC } from "./ndcg_at_k.ts";
import { CANONICAL_RANK_METRIC, MRR_AT_K_METRIC, MRR_METRIC } from "./mrr.ts";
import { TOP_TIE_METRIC } from "./top_tie.ts";
import {
  BELOW_DISTRACTOR_METRIC,
  MARGIN_METRIC,
  MISS_OWN_DISTRACTOR_METRIC,
  OUTRANK_METRIC,
} from "./distractor_diagnostics.ts";
import type { MetricEntry, RankedQuery, RankingsMetric, ScoredQuery } from "./metric.ts";

/** The built-in metrics, in per_query row order. */
export const METRIC_REGISTRY: readonly MetricEntry[] = [
  EXEC_METRIC,
  PRECISION_METRIC,
  NDCG_METRIC,
  GAP_METRIC,
  EXPECTED_EXEC_METRIC,
  TOP_TIE_METRIC,
  MRR_AT_K_METRIC,
  MRR_METRIC,
  CANONICAL_RANK_METRIC,
  MISS_OWN_DISTRACTOR_METRIC,
  BELOW_DISTRACTOR_METRIC,
  MARGIN_METRIC,
  OUTRANK_METRIC,
];

/** One (metric, k, value) a registry entry gives for a query. */
export interface MetricPoint {
  metric: string;
  k: number;
  value: number;
}

/**
 * Evaluate a registry for one query, in per_query row order: for each k of
 * `ks` the `"each_k"` entries, then the fixed-k entries. A null value gives
 * no point; a family gives one point per key, named `<name>:<key>`. With
 * only rankings evidence, only recomputable entries can be evaluated.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { EXEC_METRIC } from "./exec_at_k.ts";
 * import { MRR_METRIC } from "./mrr.ts";
 * const q = { relevant: [false, true], relevantCount: 1, canonicalRank: 2 };
 * deepStrictEqual(evaluateMetrics([EXEC_METRIC, MRR_METRIC], q, [1]), [
 *   { metric: "exec", k: 1, value: 0 },
 *   { metric: "mrr", k: 0, value: 0.5 },
 * ]);
 * ```
 */
export function evaluateMetrics(
  registry: readonly RankingsMetric[],
  evidence: RankedQuery,
  ks: readonly number[],
): MetricPoint[];
export function evaluateMetrics(
  registry: readonly MetricEntry[],
  evidence: ScoredQuery,
  ks: readonly number[],
): MetricPoint[];
export function evaluateMetrics(
  registry: readonly MetricEntry[],
  evidence: RankedQuery,
  ks: readonly number[],
): MetricPoint[] {
  const points: MetricPoint[] = [];
  const put = (m: MetricEntry, k: number) => {
    // The overloads pair rankings-only evidence with recomputable entries, which read no more.
    const v = m.value(evidence as ScoredQuery, k);
    if (v === null) return;
    if (typeof v === "number") points.push({ metric: m.name, k, value: v });
    else for (const [key, x] of v) points.push({ metric: `${m.name}:${key}`, k, value: x });
  };
  for (const k of ks) for (const m of registry) if (m.at === "each_k") put(m, k);
  for (const m of registry) if (m.at !== "each_k") put(m, m.at);
  return points;
}

/** The entries the rankings table determines. */
export function recomputableMetrics(
  registry: readonly MetricEntry[] = METRIC_REGISTRY,
): RankingsMetric[] {
  return registry.filter((m): m is RankingsMetric => m.recomputable);
}

/** Metric names in first-appearance order (the order the statistics report them). */
export function metricNames(registry: readonly MetricEntry[] = METRIC_REGISTRY): string[] {
  return [...new Set(registry.map((m) => m.name))];
}

/** Names of the metrics the rankings table determines (`execret check` recomputes them). */
export function recomputableNames(registry: readonly MetricEntry[] = METRIC_REGISTRY): string[] {
  return metricNames(recomputableMetrics(registry));
}

/**
 * A metric's report label at cutoff k (`exec@k` → `exec@3`); the label as
 * is for a metric without cutoff.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { EXEC_METRIC } from "./exec_at_k.ts";
 * strictEqual(metricLabel(EXEC_METRIC, 3), "exec@3");
 * ```
 */
export function metricLabel(entry: MetricEntry, k: number): string {
  return entry.label.replace(/@k\b/, `@${k}`);
}
