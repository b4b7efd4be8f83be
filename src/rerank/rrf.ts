import { type Reranker, zeroCost } from "./reranker.ts";

/** The RRF constant of Cormack, Clarke and Büttcher (SIGIR 2009). */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion of ranked id lists: score(d) = Σ 1 / (k + rank(d))
 * over the lists that hold d (rank 1-based). Sorted by fused score
 * descending, then by the best rank d has in any list, then by the list
 * order (first list first), then by id, so equal scores have a fixed order.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(reciprocalRankFusion([["a", "b"], ["b", "c"]], 60)[0].id, "b");
 * ```
 */
export function reciprocalRankFusion(
  lists: readonly (readonly string[])[],
  k = RRF_K,
): { id: string; score: number }[] {
  if (!(k >= 0)) throw new Error(`rrf: k must be >= 0, got ${k}`);
  const acc = new Map<string, { score: number; best: number; list: number }>();
  lists.forEach((list, li) => {
    list.forEach((id, i) => {
      const e = acc.get(id) ?? { score: 0, best: Infinity, list: li };
      e.score += 1 / (k + i + 1);
      if (i + 1 < e.best) [e.best, e.list] = [i + 1, li];
      acc.set(id, e);
    });
  });
  return [...acc].sort(([a, x], [b, y]) =>
    y.score - x.score || x.best - y.best || x.list - y.list || (a < b ? -1 : a > b ? 1 : 0)
  ).map(([id, e]) => ({ id, score: e.score }));
}

/** The `rrf` reranker: fuses the two base configs' top-k lists; no cost. */
export function rrfReranker(k = RRF_K): Reranker {
  return {
    name: "rrf",
    kind: "fusion",
    rerank(input) {
      return Promise.resolve({
        queries: input.queries.map((q) => ({
          query_id: q.query_id,
          order: reciprocalRankFusion(q.rankings.map((r) => r.map((c) => c.corpus_id)), k)
            .map((d) => ({ corpus_id: d.id, score: d.score })),
          cost: zeroCost(),
        })),
      });
    },
  };
}
