import type { Invocation } from "../invocation.ts";
import type { SparseProvider } from "../provider.ts";
import { buildIndex, termCounts } from "../inverted_index.ts";
import { tokenizeCode } from "../tokenize_code.ts";
import { defineProvider } from "../provider_entry.ts";

/** BM25 parameters (Robertson & Zaragoza's usual defaults). */
export const BM25_DEFAULTS = { k1: 1.2, b: 0.75 };

/**
 * Okapi BM25 over code-aware tokens. For query q and document d:
 * `sum over distinct query terms t of qtf(t) * idf(t) * tf*(k1+1) / (tf + k1*(1-b+b*|d|/avgdl))`
 * with `idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))` (Lucene's form, never
 * negative) and qtf the term's count in the query (repeated query words
 * count, as in rank_bm25).
 */
export function bm25Scores(
  queries: readonly string[],
  docs: readonly string[],
  k1 = BM25_DEFAULTS.k1,
  b = BM25_DEFAULTS.b,
): Float32Array {
  const index = buildIndex(docs);
  const out = new Float32Array(queries.length * docs.length);
  const row = new Float64Array(docs.length);
  const norm = new Float64Array(docs.length);
  for (let d = 0; d < docs.length; d++) {
    norm[d] = k1 * (1 - b + b * (index.avgLength > 0 ? index.lengths[d] / index.avgLength : 0));
  }
  for (let q = 0; q < queries.length; q++) {
    row.fill(0);
    for (const [term, qtf] of termCounts(tokenizeCode(queries[q]))) {
      const p = index.terms.get(term);
      if (!p) continue;
      const df = p.docs.length;
      const idf = Math.log(1 + (index.n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        const tf = p.counts[i];
        row[d] += qtf * idf * (tf * (k1 + 1)) / (tf + norm[d]);
      }
    }
    out.set(row, q * docs.length);
  }
  return out;
}

/** The bm25 provider (k1 and b from the invocation, else the defaults). */
export function bm25Provider(inv: Invocation): SparseProvider {
  const k1 = inv.k1 ?? BM25_DEFAULTS.k1;
  const b = inv.b ?? BM25_DEFAULTS.b;
  return {
    kind: "sparse",
    score: (queries, docs) => Promise.resolve(bm25Scores(queries, docs, k1, b)),
  };
}

/** Registry entry: offline, sparse (scores texts directly; no vectors, no file). */
export const bm25Entry = defineProvider({
  name: "bm25",
  kind: "sparse",
  hosted: false,
  create: (inv) => Promise.resolve(bm25Provider(inv)),
});
