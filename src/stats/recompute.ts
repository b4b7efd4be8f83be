import { pick, readTableRows } from "../io/arrow_table.ts";
import { METRICS, QUERIES, type RankingRow, RANKINGS } from "../tables/schema.ts";
import { tablePath } from "../io/paths.ts";
import {
  evaluateMetrics,
  METRIC_REGISTRY,
  recomputableMetrics,
  recomputableNames,
} from "../score/metrics/metric_registry.ts";
import type { MetricEntry } from "../score/metrics/metric.ts";

/** The rankings columns the recomputation reads. */
export type RankingLike = Pick<RankingRow, "config" | "query_id" | "rank" | "corpus_id" | "in_top">;

/** Metrics that can be recomputed from rankings alone (k ≤ 10 for the cutoff ones). */
export const RECOMPUTABLE: readonly string[] = recomputableNames();

/**
 * Recompute, from the rankings table and each query's correct ids, every
 * metric the top 10 plus the canonical's own row determine — the registry's
 * recomputable entries (built in: exec, precision, nDCG, the gap and MRR@k at
 * k ≤ 10, the uncut MRR and the mean canonical rank) — with the same entries
 * the score stage evaluates. Returns `"config|metric|k" → mean over
 * queries`. (Tie-aware exec@1, margins and per-bug-type shares need the full
 * scores and are not recomputable from rankings.)
 *
 * `m.get("bm25|exec|1")` is the mean exec@1 of bm25.
 */
export function recomputeMetricsFromRankings(
  rankings: readonly RankingLike[],
  queries: readonly { query_id: string; correct_ids: string[] }[],
  ks: readonly number[] = [1, 3, 5, 10],
  registry: readonly MetricEntry[] = METRIC_REGISTRY,
): Map<string, number> {
  const metrics = recomputableMetrics(registry);
  const cutoffs = ks.filter((k) => k <= 10); // rankings keep 10 ranks
  const correct = new Map(queries.map((q) => [q.query_id, new Set(q.correct_ids)]));
  const byQuery = new Map<string, RankingLike[]>();
  for (const r of rankings) {
    const key = `${r.config}\u0000${r.query_id}`;
    let list = byQuery.get(key);
    if (!list) byQuery.set(key, list = []);
    list.push(r);
  }
  const sums = new Map<string, [number, number]>();
  const add = (config: string, metric: string, k: number, v: number) => {
    const key = `${config}|${metric}|${k}`;
    const s = sums.get(key) ?? [0, 0];
    s[0] += v;
    s[1] += 1;
    sums.set(key, s);
  };
  for (const rows of byQuery.values()) {
    const { config, query_id } = rows[0];
    const ids = correct.get(query_id);
    if (!ids) throw new Error(`rankings: query ${query_id} is not in the queries table`);
    const top = rows.filter((r) => r.in_top).sort((a, b) => a.rank - b.rank);
    const relevant = top.map((r) => ids.has(r.corpus_id));
    const canonical = Math.min(...rows.filter((r) => ids.has(r.corpus_id)).map((r) => r.rank));
    if (!Number.isFinite(canonical)) {
      throw new Error(`rankings: ${config} has no row for a correct id of ${query_id}`);
    }
    const evidence = { relevant, relevantCount: ids.size, canonicalRank: canonical };
    for (const p of evaluateMetrics(metrics, evidence, cutoffs)) {
      add(config, p.metric, p.k, p.value);
    }
  }
  return new Map([...sums].map(([k, [s, n]]) => [k, s / n]));
}

/** One disagreement between metrics.arrow and the recomputation. */
export interface MetricMismatch {
  config: string;
  metric: string;
  k: number;
  stored: number;
  recomputed: number;
}

/**
 * For `execret check`: recompute the recomputable metrics from
 * `rankings.arrow` + `queries.arrow` and compare with `metrics.arrow`
 * (absolute tolerance 1e-9). Returns how many values were compared and the
 * mismatches.
 */
export async function checkMetricsAgainstRankings(
  tolerance = 1e-9,
): Promise<{ checked: number; mismatches: MetricMismatch[] }> {
  const rankings = await readTableRows(tablePath("rankings"), RANKINGS);
  const queries = await readTableRows(
    tablePath("queries"),
    pick(QUERIES, "query_id", "correct_ids"),
  );
  const metrics = await readTableRows(tablePath("metrics"), METRICS);
  const ks = [...new Set(metrics.filter((m) => m.metric === "exec").map((m) => m.k))];
  const recomputed = recomputeMetricsFromRankings(rankings, queries, ks);
  const mismatches: MetricMismatch[] = [];
  let checked = 0;
  for (const m of metrics) {
    const r = recomputed.get(`${m.config}|${m.metric}|${m.k}`);
    if (r === undefined) continue;
    checked++;
    if (!(Math.abs(r - m.value) <= tolerance)) {
      mismatches.push({
        config: m.config,
        metric: m.metric,
        k: m.k,
        stored: m.value,
        recomputed: r,
      });
    }
  }
  if (checked === 0 && metrics.length > 0) {
    throw new Error(`${tablePath("metrics")}: no metric could be recomputed from rankings`);
  }
  return { checked, mismatches };
}
