/**
 * The deterministic, neutral tie-break of the rankings. Lexical retrievers
 * give near-clones exactly equal scores, so the order inside a tie decides
 * exec@1. Breaking ties by corpus_id would favour canonicals ("…#c" sorts
 * before "…#m0"), so ties are ordered by a seeded hash of (query_id,
 * corpus_id) instead — a fixed pseudo-random order, the same on every run and
 * machine, that favours neither label:
 *
 *   score descending, then tieKey(query_id, corpus_id) ascending, then corpus_id ascending
 *
 * with tieKey = fmix32(h(query_id) XOR (h(corpus_id) × 0x9E3779B1 mod 2³²)),
 * h = 32-bit FNV-1a over the UTF-8 bytes, its offset basis first mixed with
 * TIE_SEED, and fmix32 MurmurHash3's finaliser. The last key only matters on a
 * 32-bit hash collision. Tie-aware metrics (expected exec@1) do not depend on
 * any of this.
 */
export const TIE_SEED = 20260510;

const encoder = new TextEncoder();

/**
 * 32-bit FNV-1a of a string's UTF-8 bytes, seeded.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(fnv1a32("a", 0), 0xe40c292c); // FNV-1a with the standard basis 0x811c9dc5
 * ```
 */
export function fnv1a32(text: string, seed = TIE_SEED): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (const byte of encoder.encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** MurmurHash3's 32-bit finaliser: every input bit affects every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The tie key of a document for a query, from their precomputed {@link fnv1a32}
 * hashes (lower comes first among equal scores).
 */
export function tieKey(queryHash: number, docHash: number): number {
  return fmix32((queryHash ^ Math.imul(docHash, 0x9e3779b1)) >>> 0);
}
