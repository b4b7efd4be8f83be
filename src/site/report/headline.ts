import { rerankedBases } from "./closing_the_gap.ts";

/** A share with its interval and the count it is taken over. */
export interface Share {
  value: number | null;
  low: number | null;
  high: number | null;
  /** Queries the share is over (missed queries for the miss share). */
  n: number | null;
}

/** The Overview's two diagnostic shares for one config. */
export interface ConfigShares {
  config: string;
  own: Share;
  below: Share;
}

type Row = Record<string, unknown>;
const num = (v: unknown) => (typeof v === "number" ? v : null);

/**
 * Per config: the share of rank-1 misses that are own distractors and the
 * share of queries whose canonical scores below a distractor. Taken from the
 * stats stage's aggregates (`SHARES_SQL`: exact, with intervals) when the run
 * has them, else counted from the rankings (`MISS_SHARE_SQL`,
 * `CANONICAL_BELOW_SQL`: no interval, distractors below rank 10 unseen).
 */
export function configShares(
  shares: readonly Row[],
  missCounts: readonly Row[],
  belowCounts: readonly Row[],
): ConfigShares[] {
  const configs = [
    ...new Set([...missCounts, ...belowCounts, ...shares].map((r) => String(r.config))),
  ].sort();
  return configs.map((config) => {
    const metric = (m: string) => shares.find((r) => r.config === config && r.metric === m);
    const ownAgg = metric("miss_own_distractor");
    const belowAgg = metric("below_distractor");
    const miss = missCounts.find((r) => r.config === config);
    const below = belowCounts.find((r) => r.config === config);
    return {
      config,
      own: ownAgg
        ? {
          value: num(ownAgg.value),
          low: num(ownAgg.ci_low),
          high: num(ownAgg.ci_high),
          n: num(ownAgg.n),
        }
        : { value: num(miss?.own_share), low: null, high: null, n: num(miss?.misses) },
      below: belowAgg
        ? {
          value: num(belowAgg.value),
          low: num(belowAgg.ci_low),
          high: num(belowAgg.ci_high),
          n: num(belowAgg.n),
        }
        : { value: num(below?.share), low: null, high: null, n: num(below?.queries) },
    };
  });
}

/**
 * The best retriever by exec@1: the config with the highest exec@1 that is
 * not a reranked one (a reranker reorders a retriever's top 10, so how often
 * the canonical scores below a distractor describes retrievers only); ties
 * go to the first name. `null` when the run has none.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(
 *   bestRetriever([
 *     { config: "bm25", value: 0.1 },
 *     { config: "bm25+exec", value: 0.3 },
 *     { config: "tfidf", value: 0.2 },
 *   ]),
 *   "tfidf",
 * );
 * ```
 */
export function bestRetriever(exec1: readonly Row[]): string | null {
  const retrievers = exec1
    .filter((r) => rerankedBases(String(r.config)).length === 0 && num(r.value) !== null)
    .sort((a, b) =>
      num(b.value)! - num(a.value)! || String(a.config).localeCompare(String(b.config))
    );
  return retrievers.length ? String(retrievers[0].config) : null;
}
