import { tieKey } from "./tie_break.ts";

/** The pool's document ids with their precomputed tie hashes. */
export interface Pool {
  ids: readonly string[];
  hashes: Uint32Array;
}

/** One query's ranking, as far as the metrics and the rankings table need it. */
export interface QueryRanking {
  /** Document indices of the first `depth` ranks (fewer for a smaller pool). */
  top: number[];
  /** Whether another document has exactly the score of each `top` entry. */
  topTie: boolean[];
  /** How many documents share the top score. */
  tiedAtTop: number;
  /** Rank (1-based) of a document after the tie-break. */
  rankOf(doc: number): number;
  /** Whether another document has exactly this document's score. */
  tied(doc: number): boolean;
  /** Whether document a is ranked above document b. */
  above(a: number, b: number): boolean;
}

/**
 * Rank a pool for one query by score descending with the tie-break of
 * tie_break.ts, without sorting the whole pool: a bounded insertion keeps the
 * first `depth + 1` documents (the extra one tells whether rank `depth` is
 * tied), and other documents' ranks are counted on demand in one pass.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { fnv1a32 } from "./tie_break.ts";
 * const ids = ["a", "b", "c"];
 * const pool = { ids, hashes: Uint32Array.from(ids, (id) => fnv1a32(id)) };
 * const r = rankQuery(new Float32Array([0.1, 0.9, 0.5]), pool, fnv1a32("q"), 2);
 * deepStrictEqual(r.top, [1, 2]);
 * ```
 */
export function rankQuery(
  scores: Float32Array | Float64Array,
  pool: Pool,
  queryHash: number,
  depth: number,
): QueryRanking {
  const n = scores.length;
  if (n !== pool.ids.length) throw new Error(`expected ${pool.ids.length} scores, got ${n}`);
  const key = (d: number) => tieKey(queryHash, pool.hashes[d]);
  const above = (a: number, b: number): boolean => {
    const sa = scores[a], sb = scores[b];
    if (sa !== sb) return sa > sb;
    if (a === b) return false;
    const ka = key(a), kb = key(b);
    if (ka !== kb) return ka < kb;
    return pool.ids[a] < pool.ids[b];
  };
  const cap = Math.min(depth + 1, n);
  const best: number[] = [];
  for (let d = 0; d < n; d++) {
    const s = scores[d];
    if (Number.isNaN(s)) throw new Error(`score of ${pool.ids[d]} is NaN`);
    if (best.length === cap) {
      const last = best[cap - 1];
      if (s < scores[last] || !above(d, last)) continue;
      best.pop();
    }
    let i = best.length;
    while (i > 0 && above(d, best[i - 1])) i--;
    best.splice(i, 0, d);
  }
  const top = best.slice(0, Math.min(depth, n));
  // Sorted by score, so a top entry is tied exactly when a neighbour in the
  // full order has its score; the (depth + 1)-th entry covers the last one.
  const topTie = top.map((d, i) =>
    (i > 0 && scores[best[i - 1]] === scores[d]) ||
    (i + 1 < best.length && scores[best[i + 1]] === scores[d])
  );
  let tiedAtTop = 0;
  if (n > 0) {
    if (topTie[0]) {
      const max = scores[best[0]];
      for (let d = 0; d < n; d++) if (scores[d] === max) tiedAtTop++;
    } else tiedAtTop = 1;
  }
  const topRank = new Map(top.map((d, i) => [d, i + 1]));
  return {
    top,
    topTie,
    tiedAtTop,
    above,
    rankOf(doc) {
      const known = topRank.get(doc);
      if (known !== undefined) return known;
      let rank = 1;
      const s = scores[doc];
      for (let d = 0; d < n; d++) {
        if (scores[d] > s || (scores[d] === s && above(d, doc))) rank++;
      }
      return rank;
    },
    tied(doc) {
      const i = top.indexOf(doc);
      if (i >= 0) return topTie[i];
      const s = scores[doc];
      for (let d = 0; d < n; d++) if (d !== doc && scores[d] === s) return true;
      return false;
    },
  };
}
