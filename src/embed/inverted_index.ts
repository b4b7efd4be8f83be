import { tokenizeCode } from "./tokenize_code.ts";

/** Postings of one term: the documents holding it and its count in each. */
export interface Postings {
  docs: number[];
  counts: number[];
}

/** An inverted index over code-aware tokens (see tokenize_code.ts). */
export interface InvertedIndex {
  /** Number of documents. */
  n: number;
  /** Token count of each document. */
  lengths: Float64Array;
  /** Mean document length. */
  avgLength: number;
  /** term → postings, documents in ascending order. */
  terms: Map<string, Postings>;
}

/** Build the index of `docs`; document i is `docs[i]`. */
export function buildIndex(docs: readonly string[]): InvertedIndex {
  const terms = new Map<string, Postings>();
  const lengths = new Float64Array(docs.length);
  let total = 0;
  for (let d = 0; d < docs.length; d++) {
    const tokens = tokenizeCode(docs[d]);
    lengths[d] = tokens.length;
    total += tokens.length;
    const counts = termCounts(tokens);
    for (const [term, count] of counts) {
      let p = terms.get(term);
      if (!p) terms.set(term, p = { docs: [], counts: [] });
      p.docs.push(d);
      p.counts.push(count);
    }
  }
  return { n: docs.length, lengths, avgLength: docs.length ? total / docs.length : 0, terms };
}

/** Count of each distinct token, in first-seen order (so float sums are deterministic). */
export function termCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/**
 * Memoise `make` on its last argument (by identity): a sparse provider whose
 * score() is called block by block with one pool array prepares that pool
 * once. Only the last pool is kept, so a provider holds one index at most.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * let built = 0;
 * const get = lastPoolMemo((docs: readonly string[]) => (built++, docs.length));
 * const pool = ["a", "b"];
 * get(pool);
 * get(pool);
 * strictEqual(built, 1);
 * ```
 */
export function lastPoolMemo<T>(
  make: (docs: readonly string[]) => T,
): (docs: readonly string[]) => T {
  let pool: readonly string[] | undefined;
  let value: T;
  return (docs) => {
    if (docs !== pool) {
      value = make(docs);
      pool = docs;
    }
    return value;
  };
}
