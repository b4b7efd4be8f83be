import type { RerankedQuery, Reranker, RerankQuery } from "../reranker.ts";
import { zeroCost } from "../reranker.ts";
import type { HostedRerankerEntry } from "./rerankers_table.ts";
import { rerankScores, type RerankScoresOptions } from "./rerank_scores.ts";

/** Queries reranked at once (each is one request for the usual top 10). */
const CONCURRENCY = 4;

/**
 * Order candidates by relevance score descending, ties by base rank, so
 * equal scores keep the base config's order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   orderByScore([{ corpus_id: "a", rank: 1 }, { corpus_id: "b", rank: 2 }], [0.1, 0.9]),
 *   [{ corpus_id: "b", score: 0.9 }, { corpus_id: "a", score: 0.1 }],
 * );
 * ```
 */
export function orderByScore(
  candidates: readonly { corpus_id: string; rank: number }[],
  scores: readonly number[],
): { corpus_id: string; score: number }[] {
  return candidates.map((c, i) => ({ c, score: scores[i] }))
    .sort((x, y) => y.score - x.score || x.c.rank - y.c.rank)
    .map(({ c, score }) => ({ corpus_id: c.corpus_id, score }));
}

/**
 * A hosted cross-encoder as a {@link Reranker}: for each query, the base
 * config's top k (at most the entry's `top_k`) are scored by
 * {@link rerankScores} against the query text and reordered by score;
 * candidates past `top_k` follow in base order, scored below every
 * reranked one. Cost per query: the API calls and tokens its scores took
 * (the same on a cached rerun).
 */
export function hostedReranker(
  entry: HostedRerankerEntry,
  options: RerankScoresOptions = {},
): Reranker {
  const one = async (q: RerankQuery, k: number): Promise<RerankedQuery> => {
    const base = q.rankings[0] ?? [];
    const head = base.slice(0, Math.min(k, entry.top_k));
    const tail = base.slice(head.length, k);
    if (head.length === 0) return { query_id: q.query_id, order: [], cost: zeroCost() };
    const got = await rerankScores(entry, q.query, head.map((c) => c.code), options);
    const low = Math.min(...got.scores);
    return {
      query_id: q.query_id,
      order: [
        ...orderByScore(head, got.scores),
        // Past the entry's top_k: base order, below every reranked score.
        ...tail.map((c, i) => ({ corpus_id: c.corpus_id, score: low - 1 - i })),
      ],
      cost: {
        ...zeroCost(),
        api_calls: got.calls,
        tokens: got.tokens,
        search_units: got.searchUnits,
      },
    };
  };
  return {
    name: entry.name,
    kind: "hosted",
    async rerank(input) {
      const out: RerankedQuery[] = new Array(input.queries.length);
      let next = 0;
      const worker = async () => {
        while (next < input.queries.length) {
          const i = next++;
          out[i] = await one(input.queries[i], input.k);
        }
      };
      await Promise.all(
        Array.from(
          { length: Math.min(entry.concurrency ?? CONCURRENCY, input.queries.length) },
          worker,
        ),
      );
      return { queries: out };
    },
  };
}
