import type { RerankerEntry } from "../../src/rerank/reranker.ts";
import { type Reranker, zeroCost } from "../../src/rerank/reranker.ts";

/** Lower-case words of a text; identifiers split at `_`, case changes and symbols. */
export function words(text: string): Set<string> {
  const spaced = text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return new Set(spaced.split(/[^a-z0-9]+/).filter((w) => w.length > 1));
}

/**
 * Reorders the base's top k by the share of the query's words that occur
 * in the snippet (its identifiers, split); the base's rank breaks ties, so
 * the answer is a permutation of the base's candidates, as the stage wants.
 */
export function overlapReranker(): Reranker {
  return {
    name: "overlap",
    kind: "local",
    rerank: (input) =>
      Promise.resolve({
        queries: input.queries.map((q) => {
          const want = [...words(q.query)];
          const scored = q.rankings[0].map((c) => {
            const have = words(c.code);
            const hits = want.filter((w) => have.has(w)).length;
            return { corpus_id: c.corpus_id, score: hits / Math.max(1, want.length), rank: c.rank };
          });
          scored.sort((a, b) => b.score - a.score || a.rank - b.rank);
          const order = scored.map(({ corpus_id, score }) => ({ corpus_id, score }));
          return { query_id: q.query_id, order, cost: zeroCost() };
        }),
      }),
  };
}

/** Registry entry: configs name it `<base>+overlap` (e.g. `bm25+overlap@5`). */
export const overlapEntry: RerankerEntry = {
  name: "overlap",
  kind: "local",
  bases: 1,
  description: "query words found in the snippet first; the base's order breaks ties",
  create: () => Promise.resolve(overlapReranker()),
};
