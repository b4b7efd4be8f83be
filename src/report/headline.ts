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
