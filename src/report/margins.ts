/**
 * The margins figure's scale. Similarities differ in range (BM25 scores are
 * unbounded, cosine lies in [-1, 1]), so one axis over every config squeezes
 * all but the widest into a sliver. Each config's margins are divided by its
 * own largest |margin|: zero stays zero, the sign stays the sign, and every
 * config spans at most [-1, 1]; the axis says so.
 */

/** A query's margin under one config, with its scaled value and the config's scale. */
export interface ScaledMargin {
  config: string;
  query_id: string;
  margin: number;
  /** margin ÷ scale, in [-1, 1]. */
  scaled: number;
  /** The config's largest |margin| (1 when every margin is 0). */
  scale: number;
}

/**
 * Every margin divided by its config's largest |margin|.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   scaledMargins([
 *     { config: "bm25", query_id: "a", margin: -4 },
 *     { config: "bm25", query_id: "b", margin: 2 },
 *     { config: "use", query_id: "a", margin: 0.1 },
 *   ]).map((d) => [d.config, d.scaled]),
 *   [["bm25", -1], ["bm25", 0.5], ["use", 1]],
 * );
 * ```
 */
export function scaledMargins(
  rows: readonly { config: unknown; query_id: unknown; margin: unknown }[],
): ScaledMargin[] {
  const scale = new Map<string, number>();
  for (const r of rows) {
    const m = Math.abs(Number(r.margin));
    if (Number.isFinite(m)) {
      scale.set(String(r.config), Math.max(scale.get(String(r.config)) ?? 0, m));
    }
  }
  return rows
    .filter((r) => Number.isFinite(Number(r.margin)))
    .map((r) => {
      const s = scale.get(String(r.config)) || 1;
      return {
        config: String(r.config),
        query_id: String(r.query_id),
        margin: Number(r.margin),
        scaled: Number(r.margin) / s,
        scale: s,
      };
    });
}
