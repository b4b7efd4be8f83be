/**
 * Score a contributed run the way the kit scores its own configs: each
 * query's listed documents get the run's scores, every other document of
 * the pool ranks below them, and the score stage's own `evaluateQuery`
 * ranks them (its tie-break, tie-aware where the metric is) and computes
 * every per-query metric from the labels the kit's oracle gave the pool.
 * Numbers in the contributor's files play no part.
 *
 * Metrics that compare a query's canonical with its own buggy copies
 * (canonical rank, MRR over the whole pool, margins, how often a copy
 * outranks the canonical) need their scores: they are computed only when
 * the run gives every query's own snippets, else left out for the entry,
 * as they are for a reranked config.
 *
 * @module
 */
import { METRIC_REGISTRY } from "../score/metrics/metric_registry.ts";
import type { MetricEntry } from "../score/metrics/metric.ts";
import type { PerQueryRow, RankingRow } from "../tables/schema.ts";
import { CANONICAL_RANK_METRIC, MRR_METRIC } from "../score/metrics/mrr.ts";
import {
  BELOW_DISTRACTOR_METRIC,
  MARGIN_METRIC,
  OUTRANK_METRIC,
} from "../score/metrics/distractor_diagnostics.ts";
import type { Benchmark } from "../score/benchmark.ts";
import { evaluateQuery, type PoolContext, poolContext } from "../score/evaluate_query.ts";
import { checkRunQuery, type ParsedRun, RunFileError } from "./run_file.ts";

/** The metrics that need a query's own canonical and distractors scored. */
const NEEDS_OWN: ReadonlySet<MetricEntry> = new Set<MetricEntry>([
  MRR_METRIC,
  CANONICAL_RANK_METRIC,
  BELOW_DISTRACTOR_METRIC,
  MARGIN_METRIC,
  OUTRANK_METRIC,
]);

/** A benchmark made ready for scoring runs against it (one pool context for all). */
export interface ScoringPool {
  benchmark: Benchmark;
  ctx: PoolContext;
  ids: ReadonlySet<string>;
  /** Each query's own snippets: its correct and distractor ids. */
  own: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Prepare `benchmark` for {@link scoreRun}. */
export function scoringPool(benchmark: Benchmark): ScoringPool {
  return {
    benchmark,
    ctx: poolContext(benchmark.corpus),
    ids: new Set(benchmark.corpus.map((d) => d.corpus_id)),
    own: new Map(
      benchmark.queries.map((
        q,
      ) => [q.query_id, new Set([...q.correct_ids, ...(q.distractor_ids ?? [])])]),
    ),
  };
}

/** A scored run: its rows under `config`, and whether it gave every query's own snippets. */
export interface ScoredRun {
  rankings: RankingRow[];
  perQuery: PerQueryRow[];
  ownScored: boolean;
}

/**
 * Check `run` against the pool (every query present and nothing else, each
 * query's list well formed: run_file.ts) and score it as config `config`.
 * A problem throws a {@link RunFileError} naming the file and line.
 */
export function scoreRun(
  file: string,
  run: ParsedRun,
  pool: ScoringPool,
  config: string,
  ks: readonly number[],
): ScoredRun {
  const { benchmark, ctx } = pool;
  const queryIds = new Set(benchmark.queries.map((q) => q.query_id));
  for (const q of run.queries.values()) {
    if (!queryIds.has(q.id)) {
      throw new RunFileError(file, q.line, `query ${q.id} is not in the benchmark`);
    }
  }
  const missing = benchmark.queries.filter((q) => !run.queries.has(q.query_id));
  if (missing.length > 0) {
    const first = missing.slice(0, 3).map((q) => q.query_id).join(", ");
    throw new RunFileError(
      file,
      null,
      `${missing.length} of the benchmark's ${benchmark.queries.length} queries are missing (${first}${
        missing.length > 3 ? ", ..." : ""
      })`,
    );
  }
  let ownScored = true;
  for (const q of benchmark.queries) {
    const lines = run.queries.get(q.query_id)!;
    const own = pool.own.get(q.query_id)!;
    checkRunQuery(file, lines, pool.ids, own);
    const listed = new Set(lines.lines.map((l) => l.doc));
    for (const id of own) if (!listed.has(id)) ownScored = false;
  }
  const registry = ownScored ? METRIC_REGISTRY : METRIC_REGISTRY.filter((m) => !NEEDS_OWN.has(m));
  const rankings: RankingRow[] = [];
  const perQuery: PerQueryRow[] = [];
  const scores = new Float64Array(benchmark.corpus.length);
  for (const q of benchmark.queries) {
    scores.fill(-Infinity);
    for (const l of run.queries.get(q.query_id)!.lines) scores[ctx.index.get(l.doc)!] = l.score;
    const r = evaluateQuery(config, q, scores, ctx, ks, registry);
    // Without the own snippets' scores, the canonical's rank below the list is unknown.
    rankings.push(...(ownScored ? r.rankings : r.rankings.filter((row) => row.in_top)));
    perQuery.push(...r.perQuery);
  }
  return { rankings, perQuery, ownScored };
}
