import { readRows } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { exec_at_k } from "../metrics/exec_at_k.ts";
import { precision_at_k } from "../metrics/precision_at_k.ts";
import { exec_ndcg_gap, ndcg_at_k } from "../metrics/ndcg_at_k.ts";
import { reciprocal_rank } from "../metrics/mrr.ts";

/** The rankings columns the recomputation reads. */
export interface RankingLike {
  config: string;
  query_id: string;
  rank: number;
  corpus_id: string;
  in_top: boolean;
}

/** Metrics that can be recomputed from rankings alone (k ≤ 10 for the cutoff ones). */
export const RECOMPUTABLE = ["exec", "precision", "ndcg", "gap", "mrr", "canonical_rank"];

/**
 * Recompute, from the rankings table and each query's correct ids, every
 * metric the top 10 plus the canonical's own row determine — exec, precision,
 * nDCG, the gap and MRR@k at k ≤ 10, the uncut MRR and the mean canonical rank — with the same
 * metric functions the score stage uses. Returns `"config|metric|k" → mean
 * over queries`. (Tie-aware exec@1, margins and per-bug-type shares need the
 * full scores and are not recomputable from rankings.)
 *
 * @example
 * ```ts
 * const m = recomputeMetricsFromRankings(rankings, queries, [1, 10]);
 * m.get("bm25|exec|1"); // mean exec@1 of bm25
 * ```
 */
export function recomputeMetricsFromRankings(
  rankings: readonly RankingLike[],
  queries: readonly { query_id: string; correct_ids: string[] }[],
  ks: readonly number[] = [1, 3, 5, 10],
): Map<string, number> {
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
    for (const k of ks) {
      if (k > 10) continue; // rankings keep 10 ranks
      add(config, "exec", k, exec_at_k(relevant, k));
      add(config, "precision", k, precision_at_k(relevant, k));
      add(config, "ndcg", k, ndcg_at_k(relevant, k, ids.size));
      add(config, "gap", k, exec_ndcg_gap(relevant, k, ids.size));
      const first = relevant.indexOf(true);
      add(config, "mrr", k, first >= 0 && first < k ? reciprocal_rank(first + 1) : 0);
    }
    const canonical = Math.min(...rows.filter((r) => ids.has(r.corpus_id)).map((r) => r.rank));
    if (!Number.isFinite(canonical)) {
      throw new Error(`rankings: ${config} has no row for a correct id of ${query_id}`);
    }
    add(config, "mrr", 0, reciprocal_rank(canonical));
    add(config, "canonical_rank", 0, canonical);
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
  const rankings = await readRows<RankingLike>(tablePath("rankings"));
  const queries = await readRows<{ query_id: string; correct_ids: string[] }>(tablePath("queries"));
  const metrics = await readRows<{ config: string; metric: string; k: number; value: number }>(
    tablePath("metrics"),
  );
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
