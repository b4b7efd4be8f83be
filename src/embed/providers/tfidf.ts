import type { Invocation } from "../invocation.ts";
import type { SparseProvider } from "../provider.ts";
import { buildIndex, termCounts } from "../inverted_index.ts";
import { tokenizeCode } from "../tokenize_code.ts";
import { defineProvider } from "../provider_entry.ts";

/**
 * TF-IDF cosine over code-aware tokens, weighted as scikit-learn's
 * TfidfVectorizer defaults: raw count times `idf = ln((1 + N) / (1 + df)) + 1`,
 * each vector L2-normalised; query terms absent from the documents are
 * dropped before normalising. Score = cosine of query and document vectors.
 */
export function tfidfScores(queries: readonly string[], docs: readonly string[]): Float32Array {
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
}

/** The tfidf provider. */
export function tfidfProvider(_inv: Invocation): SparseProvider {
  return { kind: "sparse", score: (queries, docs) => Promise.resolve(tfidfScores(queries, docs)) };
}

/** Registry entry: offline, sparse (scores texts directly; no vectors, no file). */
export const tfidfEntry = defineProvider({
  name: "tfidf",
  kind: "sparse",
  hosted: false,
  create: (inv) => Promise.resolve(tfidfProvider(inv)),
});
