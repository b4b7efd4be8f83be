import type { Benchmark } from "./benchmark.ts";
import type { RescorePlan } from "./two_path_scores.ts";

/**
 * The {@link RescorePlan} of evaluate_query.ts: what it reads from a query's
 * full score row. The first `depth` ranks (rankings rows, exec/precision/ndcg
 * at every k, tie flags, the count tied at the top); the rank and tie status
 * of each correct id (canonical_rank, mrr, the canonical's rankings row); and
 * the scores of the query's own distractors (margin, below_distractor,
 * outrank shares). Ids missing from the pool are left out here: evaluateQuery
 * reports them.
 */
export function evaluationPlan(bench: Benchmark, depth: number): RescorePlan {
  const index = new Map(bench.corpus.map((d, i) => [d.corpus_id, i]));
  const indices = (ids: readonly string[] | null | undefined) =>
    (ids ?? []).flatMap((id) => {
      const i = index.get(id);
      return i === undefined ? [] : [i];
    });
  return {
    depth,
    ranked: (q) => indices(bench.queries[q].correct_ids),
    read: (q) => indices(bench.queries[q].distractor_ids),
  };
}
