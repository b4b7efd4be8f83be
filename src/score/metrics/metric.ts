/**
 * The shape of a metric registry entry (see registry.ts): a metric's name in
 * the per_query table, where it is cut, what the report calls it, and its
 * value for one ranked query. Types only, so every metric file can import
 * them without importing the registry.
 */

/**
 * What the rankings table determines about one query (its top 10 plus the
 * canonical's own row and the query's correct ids): all a recomputable metric
 * may read.
 */
export interface RankedQuery {
  /** `relevant[i]`: the result at rank i + 1 is one of the query's correct ids (at least 10 ranks). */
  relevant: readonly boolean[];
  /** How many correct ids the query has. */
  relevantCount: number;
  /** Rank of the query's best-ranked correct id (its canonical). */
  canonicalRank: number;
}

/** One of the query's own distractors, as the full scores place it. */
export interface ScoredDistractor {
  score: number;
  bugType: string;
  /** Ranked above the canonical (after the tie-break). */
  outranks: boolean;
}

/** What the full score vector adds to {@link RankedQuery}. */
export interface ScoredQuery extends RankedQuery {
  /** Documents sharing the top score. */
  tiedAtTop: number;
  /** Correct ids among them. */
  correctTiedAtTop: number;
  /** The rank-1 document is the query's own task's code. */
  top1OwnTask: boolean;
  canonicalScore: number;
  /** The query's own distractors (empty when it has none). */
  distractors: readonly ScoredDistractor[];
}

/**
 * A metric's value for one query: a number, null when it is not defined for
 * that query (no row is written), or a family of values keyed by a suffix
 * (rows named `<name>:<key>`, in the map's order).
 */
export type MetricValue = number | null | ReadonlyMap<string, number>;

interface MetricEntryBase {
  /** The `metric` column of per_query, metrics and pairwise. */
  name: string;
  /**
   * `"each_k"`: one value per cutoff k of the run (k ≤ 10 when recomputed
   * from rankings); a number: one value at that fixed k (0 = no cutoff).
   */
  at: "each_k" | number;
  /** How the report names it; `@k` is replaced by the cutoff. */
  label: string;
  /** One sentence for the report and the SQL console. */
  description: string;
  /** Which way is better for the retriever. */
  better: "higher" | "lower";
  /** Shown as a column of the leaderboard. */
  leaderboard: boolean;
}

/** A metric the rankings table determines: `execret check` recomputes it from there. */
export interface RankingsMetric extends MetricEntryBase {
  recomputable: true;
  value(q: RankedQuery, k: number): MetricValue;
}

/** A metric that needs the full scores (ties at the top, distractors below rank 10). */
export interface ScoresMetric extends MetricEntryBase {
  recomputable: false;
  value(q: ScoredQuery, k: number): MetricValue;
}

/** One entry of the metric registry. */
export type MetricEntry = RankingsMetric | ScoresMetric;
