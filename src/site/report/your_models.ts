/**
 * The "Your models" page's data, shaped at build time: where each config a
 * user declared (`--invocations`) stands among the run's configs, which other
 * configs it is separable from, and the bug types that fool it most. Pure, so
 * the loader only reads tables and the page only draws.
 */
import type { RowOf } from "../../io/arrow_table.ts";
import type { METRICS, MODEL_RANKS, PAIRWISE } from "../../tables/schema.ts";

/** Holm-adjusted McNemar p below which two configs count as separable. */
export const SEPARABLE_ALPHA = 0.05;
/** How many bug types the page lists per user config. */
const TOP_BUG_TYPES = 5;

/** One config's rank with its 95% interval, for one metric and k. */
export interface RankLine {
  config: string;
  mine: boolean;
  rank: number;
  low: number;
  high: number;
  n: number;
  value: number | null;
}

/** A user config against one other config (exec@k, McNemar with Holm). */
export interface Versus {
  config: string;
  other: string;
  mine_rate: number;
  other_rate: number;
  p_holm: number | null;
  separable: boolean;
}

/** A bug type and how often its distractor outranks the canonical, for one user config. */
export interface Fooled {
  config: string;
  bug_type: string;
  rate: number;
  ci_low: number;
  ci_high: number;
}

/** What the page draws. */
export interface YourModels {
  /** User config → the invocation file it came from. */
  user_configs: Record<string, string>;
  /** Metrics and cutoffs with ranks, in a stable order (exec first). */
  series: { metric: string; k: number }[];
  ranks: (RankLine & { metric: string; k: number })[];
  versus: (Versus & { k: number })[];
  fooled: Fooled[];
}

/**
 * Shape the page's data from the run's tables.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { yourModels } from "./your_models.ts";
 * const rank = (config: string, rank: number) =>
 *   ({ config, metric: "exec", k: 1, rank, rank_ci_low: rank, rank_ci_high: rank, n_configs: 2 });
 * const d = yourModels({ mine: "f.json" }, [rank("mine", 1), rank("bm25", 2)], [], []);
 * deepStrictEqual(d.ranks.map((r) => [r.config, r.mine]), [["mine", true], ["bm25", false]]);
 * ```
 */
export function yourModels(
  userConfigs: Record<string, string>,
  ranks: readonly RowOf<typeof MODEL_RANKS>[],
  pairwise: readonly RowOf<typeof PAIRWISE>[],
  metrics: readonly RowOf<typeof METRICS>[],
): YourModels {
  const mine = (c: string) => Object.hasOwn(userConfigs, c);
  const value = new Map(metrics.map((m) => [`${m.config}\t${m.metric}\t${m.k}`, m.value]));
  const seriesKeys = [...new Set(ranks.map((r) => `${r.metric}\t${r.k}`))];
  const order = (m: string) => ["exec", "precision", "ndcg", "gap"].indexOf(m) >>> 0;
  const series = seriesKeys.map((s) => {
    const [metric, k] = s.split("\t");
    return { metric, k: Number(k) };
  }).sort((a, b) =>
    order(a.metric) - order(b.metric) || a.metric.localeCompare(b.metric) || a.k - b.k
  );
  const rankLines = ranks.map((r) => ({
    config: r.config,
    metric: r.metric,
    k: r.k,
    mine: mine(r.config),
    rank: r.rank,
    low: r.rank_ci_low,
    high: r.rank_ci_high,
    n: r.n_configs,
    value: value.get(`${r.config}\t${r.metric}\t${r.k}`) ?? null,
  })).sort((a, b) =>
    order(a.metric) - order(b.metric) || a.k - b.k || a.rank - b.rank ||
    a.config.localeCompare(b.config)
  );
  const versus: YourModels["versus"] = [];
  for (const p of pairwise) {
    if (p.metric !== "exec") continue;
    for (
      const [self, other, selfRate, otherRate] of [
        [p.config_a, p.config_b, p.a_rate, p.b_rate],
        [p.config_b, p.config_a, p.b_rate, p.a_rate],
      ] as const
    ) {
      if (!mine(self)) continue;
      versus.push({
        config: self,
        other,
        k: p.k,
        mine_rate: selfRate,
        other_rate: otherRate,
        p_holm: p.p_holm ?? null,
        separable: p.p_holm !== null && p.p_holm !== undefined && p.p_holm < SEPARABLE_ALPHA,
      });
    }
  }
  versus.sort((a, b) =>
    a.config.localeCompare(b.config) || a.k - b.k || a.other.localeCompare(b.other)
  );
  const fooled: Fooled[] = [];
  for (const config of Object.keys(userConfigs).sort()) {
    const rows = metrics
      .filter((m) => m.config === config && m.metric.startsWith("outrank:"))
      .map((m) => ({
        config,
        bug_type: m.metric.slice("outrank:".length),
        rate: m.value,
        ci_low: m.ci_low,
        ci_high: m.ci_high,
      }))
      .sort((a, b) => b.rate - a.rate || a.bug_type.localeCompare(b.bug_type));
    fooled.push(...rows.slice(0, TOP_BUG_TYPES));
  }
  return { user_configs: userConfigs, series, ranks: rankLines, versus, fooled };
}
