import type { Invocation } from "../invocation.ts";
import type { SparseProvider } from "../provider.ts";
import { buildIndex, lastPoolMemo, termCounts } from "../inverted_index.ts";
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
  return bm25Scorer(docs, k1, b)(queries);
}

/**
 * {@link bm25Scores} split in two: the index of `docs` is built once, and the
 * returned function scores any block of queries against it (row-major
 * `queries.length × docs.length`). A query's row depends on the documents
 * alone, so scoring the queries block by block gives the same bits as all at
 * once, with one block's scores in memory instead of the whole matrix.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const score = bm25Scorer(["a b", "b c"]);
 * deepStrictEqual(score(["c", "a"]), bm25Scores(["c", "a"], ["a b", "b c"]));
 * ```
 */
export function bm25Scorer(
  docs: readonly string[],
  k1 = BM25_DEFAULTS.k1,
  b = BM25_DEFAULTS.b,
): (queries: readonly string[]) => Float32Array {
  const index = buildIndex(docs);
  const norm = new Float64Array(docs.length);
  for (let d = 0; d < docs.length; d++) {
    norm[d] = k1 * (1 - b + b * (index.avgLength > 0 ? index.lengths[d] / index.avgLength : 0));
  }
  return (queries) => {
    const out = new Float32Array(queries.length * docs.length);
    const row = new Float64Array(docs.length);
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
  };
}

/** The bm25 provider (k1 and b from the invocation, else the defaults). */
export function bm25Provider(inv: Invocation): SparseProvider {
  const k1 = inv.k1 ?? BM25_DEFAULTS.k1;
  const b = inv.b ?? BM25_DEFAULTS.b;
  // The score stage calls score() once per block of queries with the same
  // pool array: the index is built once for it, not once per block.
  const scorer = lastPoolMemo((docs) => bm25Scorer(docs, k1, b));
  return { kind: "sparse", score: (queries, docs) => Promise.resolve(scorer(docs)(queries)) };
}

/** Registry entry: offline, sparse (scores texts directly; no vectors, no file). */
export const bm25Entry = defineProvider({
  name: "bm25",
  kind: "sparse",
  hosted: false,
  create: (inv) => Promise.resolve(bm25Provider(inv)),
});
