import type { Invocation } from "../invocation.ts";
import type { SparseProvider } from "../provider.ts";
import { buildIndex, lastPoolMemo, termCounts } from "../inverted_index.ts";
import { tokenizeCode } from "../tokenize_code.ts";
import { defineProvider } from "../provider_entry.ts";

/**
 * TF-IDF cosine over code-aware tokens, weighted as scikit-learn's
 * TfidfVectorizer defaults: raw count times `idf = ln((1 + N) / (1 + df)) + 1`,
 * each vector L2-normalised; query terms absent from the documents are
 * dropped before normalising. Score = cosine of query and document vectors.
 */
export function tfidfScores(queries: readonly string[], docs: readonly string[]): Float32Array {
  return tfidfScorer(docs)(queries);
}

/**
 * {@link tfidfScores} split in two: idf and document norms are computed once
 * for `docs`, and the returned function scores any block of queries against
 * them (row-major `queries.length × docs.length`, the same bits as scoring
 * all queries at once: a query's row depends on the documents alone).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const score = tfidfScorer(["a b", "b c"]);
 * deepStrictEqual(score(["c", "a"]), tfidfScores(["c", "a"], ["a b", "b c"]));
 * ```
 */
export function tfidfScorer(docs: readonly string[]): (queries: readonly string[]) => Float32Array {
  const index = buildIndex(docs);
  const idf = new Map<string, number>();
  for (const [term, p] of index.terms) {
    idf.set(term, Math.log((1 + index.n) / (1 + p.docs.length)) + 1);
  }
  const docNorm = new Float64Array(docs.length);
  for (const [term, p] of index.terms) {
    const w = idf.get(term)!;
    for (let i = 0; i < p.docs.length; i++) docNorm[p.docs[i]] += (p.counts[i] * w) ** 2;
  }
  for (let d = 0; d < docNorm.length; d++) docNorm[d] = Math.sqrt(docNorm[d]);
  return (queries) => {
    const out = new Float32Array(queries.length * docs.length);
    const row = new Float64Array(docs.length);
    for (let q = 0; q < queries.length; q++) {
      row.fill(0);
      const weights: [string, number][] = [];
      let qNorm = 0;
      for (const [term, count] of termCounts(tokenizeCode(queries[q]))) {
        const w = idf.get(term);
        if (w === undefined) continue;
        weights.push([term, count * w]);
        qNorm += (count * w) ** 2;
      }
      qNorm = Math.sqrt(qNorm);
      if (qNorm === 0) continue;
      for (const [term, wq] of weights) {
        const p = index.terms.get(term)!;
        const w = idf.get(term)!;
        for (let i = 0; i < p.docs.length; i++) {
          const d = p.docs[i];
          row[d] += wq * p.counts[i] * w;
        }
      }
      for (let d = 0; d < docs.length; d++) {
        out[q * docs.length + d] = docNorm[d] > 0 ? row[d] / (qNorm * docNorm[d]) : 0;
      }
    }
    return out;
  };
}

/** The tfidf provider. */
export function tfidfProvider(_inv: Invocation): SparseProvider {
  // One idf/norm pass per pool, however many blocks of queries score against it.
  const scorer = lastPoolMemo(tfidfScorer);
  return { kind: "sparse", score: (queries, docs) => Promise.resolve(scorer(docs)(queries)) };
}

/** Registry entry: offline, sparse (scores texts directly; no vectors, no file). */
export const tfidfEntry = defineProvider({
  name: "tfidf",
  kind: "sparse",
  hosted: false,
  create: (inv) => Promise.resolve(tfidfProvider(inv)),
});
