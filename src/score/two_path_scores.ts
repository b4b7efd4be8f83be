import { exactScorer } from "./exact_rescore.ts";
import type { NativeGemm } from "./native_gemm.ts";

/**
 * What the consumer of a score row reads, so the two-path scorer knows which
 * scores must be exact (the fixed-order kernel's bits) and which may stay
 * approximate.
 */
export interface RescorePlan {
  /**
   * Ranks whose order is read: the first `depth` documents in kernel order
   * (rank_query.ts keeps depth + 1, the extra one telling whether rank
   * `depth` is tied, so depth + 1 are made exact).
   */
  depth: number;
  /**
   * Documents of query `q` whose rank (or tie status) over the whole pool is
   * read, e.g. the canonical: its exact score and every document that could
   * fall on either side of it are re-scored.
   */
  ranked?(q: number): readonly number[];
  /** Documents of query `q` whose score is read, e.g. the query's own distractors. */
  read?(q: number): readonly number[];
}

/** Scores from {@link twoPathScores}, with how many were re-scored exactly. */
export interface TwoPathResult {
  /**
   * Row-major nq × nd. Every entry the plan reads holds the fixed-order
   * kernel's score; the rest hold GEMM scores, each proven to fall strictly on
   * the same side as its exact score of every exact score the plan reads.
   */
  scores: Float32Array;
  /** (query, document) pairs scored by the fixed-order kernel. */
  rescored: number;
}

/** A native GEMM score found further from the kernel's than the error bound allows. */
export class GemmBoundError extends Error {
  override name = "GemmBoundError";
}

const U = 2 ** -24; // unit roundoff of float32

/**
 * Proven bound on |computed − exact| of a float32 dot product of length
 * `dims` whose operands have Euclidean norms `xNorm` and `yNorm`, for ANY
 * summation order (the fixed-order kernel's, or whatever blocking and FMA a
 * BLAS uses):
 *
 *   |fl(x·y) − x·y| ≤ γ_n Σ|x_i y_i| ≤ γ_n ‖x‖ ‖y‖,  γ_n = n·u / (1 − n·u),  u = 2⁻²⁴
 *
 * (Higham, Accuracy and Stability of Numerical Algorithms, §3.1: each product
 * is rounded once and each term passes through at most n − 1 rounded
 * additions in any summation tree; a fused multiply-add only removes
 * roundings; the second step is Cauchy–Schwarz). n is taken as dims + 8, not
 * dims: the WASM kernel's tree (lanes, then (l0 + l1) + (l2 + l3), then chunks
 * added to the output) puts at most dims/4 + dims/512 + 4 roundings on a term,
 * which exceeds dims only for tiny dims. Underflow, which the relative model
 * does not cover, costs at most 2⁻¹⁵⁰ per product (sums of subnormals are
 * exact): dims · 2⁻¹⁴⁹ is added. The norms are computed in float64 (relative
 * error ~dims · 2⁻⁵³), covered by the 1e-6 inflation. Infinite when n·u ≥ 1.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(dotErrorBound(4096, 1, 1).toExponential(3), "2.447e-4");
 * ```
 */
export function dotErrorBound(dims: number, xNorm: number, yNorm: number): number {
  const nu = (dims + 8) * U;
  if (nu >= 1) return Infinity;
  const gamma = nu / (1 - nu);
  return (gamma * xNorm * yNorm + dims * 2 ** -149) * (1 + 1e-6);
}

/** Euclidean norms of rows, in float64 (four partial sums: any order is fine for a bound). */
function rowNorms(data: Float32Array, rows: number, dims: number): Float64Array {
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let a = 0, b = 0, c = 0, e = 0, k = r * dims;
    const end = k + dims;
    for (; k + 3 < end; k += 4) {
      a += data[k] * data[k];
      b += data[k + 1] * data[k + 1];
      c += data[k + 2] * data[k + 2];
      e += data[k + 3] * data[k + 3];
    }
    for (; k < end; k++) a += data[k] * data[k];
    out[r] = Math.sqrt((a + b) + (c + e));
  }
  return out;
}

/**
 * Indices of `row`, in order, whose value is at least its `k`-th largest value
 * minus `slack` (k ≥ 1, k ≤ row.length), found in one pass: a bounded sorted
 * buffer tracks the k largest so far, and a value below the running k-th
 * largest minus `slack` can never pass the final test (that k-th largest only
 * grows). `null` when the row holds a non-finite value.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(nearTop(new Float32Array([3, 9, 1, 9, 4]), 3, 1), [0, 1, 3, 4]);
 * deepStrictEqual(nearTop(new Float32Array([3, NaN]), 1, 0), null);
 * ```
 */
export function nearTop(row: Float32Array, k: number, slack: number): number[] | null {
  const best = new Float64Array(k).fill(-Infinity); // descending
  let kth = -Infinity, floor = -Infinity, nonFinite = 0;
  const seen: number[] = [];
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    // NaN after the loop iff some value was NaN or ±Infinity: one multiply
    // per value instead of a branch (the loop ran 1.7× slower with it).
    nonFinite += v * 0;
    if (v >= floor) {
      seen.push(i);
      if (v > kth) {
        let j = k - 1;
        while (j > 0 && best[j - 1] < v) {
          best[j] = best[j - 1];
          j--;
        }
        best[j] = v;
        kth = best[k - 1];
        floor = kth - slack;
      }
    }
  }
  if (nonFinite !== 0) return null;
  const out: number[] = [];
  for (const i of seen) if (row[i] >= floor) out.push(i);
  return out;
}

/**
 * Dot scores of every query with every document in two passes: all of them by
 * a native GEMM (fast, but its last bits depend on the machine's BLAS), then
 * every score a table can depend on by the fixed-order kernel, so rankings
 * and metrics are bit-identical to scoring everything with the kernel.
 *
 * Per query, with Δ = 2·{@link dotErrorBound}(dims, ‖q‖, max‖d‖) (the GEMM
 * score g and the kernel score e both lie within half of Δ of the true dot
 * product, so |g − e| ≤ Δ for every document) and K = depth + 1:
 *
 * - Top of the ranking: every document with g ≥ g₍K₎ − 2Δ (g₍K₎ the K-th
 *   largest GEMM score) is re-scored. Any other document has
 *   e < g₍K₎ − Δ ≤ e of each of the K documents with g ≥ g₍K₎, and its GEMM
 *   score is below g₍K₎ − 2Δ, lower than all of those K exact scores too: so
 *   the first K documents, their order, their ties and the count of documents
 *   tied at the top are the kernel's.
 * - `ranked` documents (the canonical): re-scored, then so is every document
 *   whose g lies within Δ of the canonical's exact score s. Any other document
 *   has |g − s| > Δ ≥ |g − e|, so its g and its e lie strictly on the same
 *   side of s: the canonical's rank and tie status are the kernel's.
 * - `read` documents (the query's distractors): re-scored.
 *
 * A query whose GEMM row holds a non-finite value, or whose norms come near
 * float32 overflow, is re-scored whole. Every re-scored pair also checks the
 * GEMM against the bound (|g − e| ≤ Δ); a violation throws
 * {@link GemmBoundError} rather than publish a ranking the proof no longer
 * covers. `options.out` (nq × nd values) receives the scores instead of a
 * fresh array (see {@link NativeGemm.dots}).
 */
export async function twoPathScores(
  queries: Float32Array,
  docs: Float32Array,
  nq: number,
  nd: number,
  dims: number,
  gemm: Pick<NativeGemm, "dots">,
  plan: RescorePlan,
  options: { out?: Float32Array } = {},
): Promise<TwoPathResult> {
  // onnxruntime-node 1.30 runs a session inside a setImmediate callback on
  // this thread (its dist/backend.js), so the norms below are computed before
  // the GEMM starts, not beside it.
  const pending = gemm.dots(queries, docs, nq, nd, dims, options.out);
  const qNorms = rowNorms(queries, nq, dims);
  let maxDocNorm = 0;
  for (const n of rowNorms(docs, nd, dims)) maxDocNorm = n > maxDocNorm ? n : maxDocNorm;
  const scores = await pending;
  if (scores.length !== nq * nd) throw new Error(`native GEMM returned ${scores.length} scores`);
  const score = exactScorer(docs, nd, dims);
  const K = Math.min(Math.max(1, Math.floor(plan.depth) + 1), nd);
  const marked = new Uint8Array(nd);
  let rescored = 0;
  const everyDoc = Int32Array.from({ length: nd }, (_, i) => i);
  for (let qi = 0; qi < nq && nd > 0; qi++) {
    const row = scores.subarray(qi * nd, (qi + 1) * nd);
    const query = queries.subarray(qi * dims, (qi + 1) * dims);
    const delta = 2 * dotErrorBound(dims, qNorms[qi], maxDocNorm);
    const top = Number.isFinite(delta) && qNorms[qi] * maxDocNorm < 2 ** 120
      ? nearTop(row, K, 2 * delta)
      : null;
    if (top === null) {
      row.set(score(query, everyDoc));
      rescored += nd;
      continue;
    }
    const chosen: number[] = [];
    const take = (d: number) => {
      if (d >= 0 && d < nd && marked[d] === 0) {
        marked[d] = 1;
        chosen.push(d);
      }
    };
    for (const d of top) take(d);
    const ranked = plan.ranked?.(qi) ?? [];
    for (const d of ranked) take(d);
    for (const d of plan.read?.(qi) ?? []) take(d);
    const apply = (ds: number[]) => {
      const exact = score(query, ds);
      for (let j = 0; j < ds.length; j++) {
        // A GEMM outside its proven bound (a broken BLAS, a wrong buffer
        // offset) would void the proof: checked on every pair re-scored.
        if (!(Math.abs(row[ds[j]] - exact[j]) <= delta)) {
          throw new GemmBoundError(
            `native GEMM score of query ${qi}, document ${ds[j]} is ${row[ds[j]]}, ` +
              `the kernel's ${exact[j]}: further apart than the proven bound ${delta}`,
          );
        }
        row[ds[j]] = exact[j];
      }
      rescored += ds.length;
    };
    apply(chosen);
    // Windows around the ranked documents' exact scores (read after apply).
    const around: number[] = [];
    for (const c of ranked) {
      if (!(c >= 0 && c < nd)) continue;
      const lo = row[c] - delta, hi = row[c] + delta;
      for (let d = 0; d < nd; d++) {
        if (marked[d] === 0 && row[d] >= lo && row[d] <= hi) {
          marked[d] = 1;
          around.push(d);
        }
      }
    }
    apply(around);
    for (const d of chosen) marked[d] = 0;
    for (const d of around) marked[d] = 0;
  }
  return { scores, rescored };
}
