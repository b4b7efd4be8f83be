/**
 * The `leaderboard` table: one row per model on the run's board, from the
 * statistics the stage has just computed over every config (the kit's, the
 * paper's released systems, the verified leaderboard entries alike).
 *
 * @module
 */
import type { RowOf } from "../io/arrow_table.ts";
import { type BOARD_ENTRIES, type LEADERBOARD, RELEASED_PREFIX } from "../tables/board.ts";
import type { MetricRow, PairwiseRow } from "../tables/schema.ts";
import type { ModelRankRow } from "./model_ranks.ts";

/** Holm-adjusted p below which two models are separable. */
export const SEPARABLE_P = 0.05;

/** Where a config comes from: an entry, a released system of the paper, or the kit. */
function kindOf(config: string, entries: ReadonlyMap<string, unknown>): "kit" | "paper" | "entry" {
  if (entries.has(config)) return "entry";
  return config.startsWith(RELEASED_PREFIX) ? "paper" : "kit";
}

/**
 * LMArena's conservative rank: 1 + the number of models whose lower bound
 * is above this model's upper bound.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { conservativeRanks } from "./leaderboard_table.ts";
 * deepStrictEqual(conservativeRanks([[0.5, 0.7], [0.4, 0.6], [0.1, 0.3]]), [1, 1, 3]);
 * ```
 */
export function conservativeRanks(intervals: readonly [number, number][]): number[] {
  return intervals.map(([, high]) => 1 + intervals.filter(([low]) => low > high).length);
}

/**
 * One row per config with exec@1 (every config has it), best first by
 * exec@1 then name. `entries` are the verified entries (board_entries).
 */
export function leaderboardRows(
  metrics: readonly MetricRow[],
  ranks: readonly ModelRankRow[],
  pairwise: readonly PairwiseRow[],
  entries: readonly RowOf<typeof BOARD_ENTRIES>[],
): RowOf<typeof LEADERBOARD>[] {
  const byEntry = new Map(entries.map((e) => [e.config, e]));
  const at = (metric: string, k: number) =>
    new Map(metrics.filter((m) => m.metric === metric && m.k === k).map((m) => [m.config, m]));
  const exec1 = at("exec", 1);
  const exec10 = at("exec", 10);
  const rank1 = new Map(
    ranks.filter((r) => r.metric === "exec" && r.k === 1).map((r) => [r.config, r]),
  );
  const separable = new Map<string, string[]>();
  for (const p of pairwise) {
    if (p.metric !== "exec" || p.k !== 1 || p.p_holm === null || p.p_holm >= SEPARABLE_P) continue;
    for (const [a, b] of [[p.config_a, p.config_b], [p.config_b, p.config_a]]) {
      const list = separable.get(a) ?? [];
      list.push(b);
      separable.set(a, list);
    }
  }
  const configs = [...exec1.keys()].sort((a, b) =>
    exec1.get(b)!.value - exec1.get(a)!.value || (a < b ? -1 : 1)
  );
  const cons = conservativeRanks(
    configs.map((c) => [exec1.get(c)!.ci_low, exec1.get(c)!.ci_high] as [number, number]),
  );
  return configs.map((config, i) => {
    const m1 = exec1.get(config)!;
    const m10 = exec10.get(config);
    const r = rank1.get(config);
    const entry = byEntry.get(config);
    const kind = kindOf(config, byEntry);
    return {
      config,
      kind,
      model: entry?.model ?? config,
      level: entry?.level ?? kind,
      exec1: m1.value,
      exec1_ci_low: m1.ci_low,
      exec1_ci_high: m1.ci_high,
      exec10: m10?.value ?? null,
      exec10_ci_low: m10?.ci_low ?? null,
      exec10_ci_high: m10?.ci_high ?? null,
      rank: r?.rank ?? 1 + configs.filter((c) => exec1.get(c)!.value > m1.value).length,
      rank_ci_low: r?.rank_ci_low ?? 0,
      rank_ci_high: r?.rank_ci_high ?? 0,
      conservative_rank: cons[i],
      separable_from: (separable.get(config) ?? []).sort(),
      run_path: entry?.run_path ?? null,
      meta_path: entry?.meta_path ?? null,
    };
  });
}
