import { GATHER_ROWS, gatherModule } from "./gather_kernel.ts";

/**
 * Scores of one query against a chosen few documents, bit-identical to the
 * corresponding entries of dot_kernel.ts's {@link dotScores} over the whole
 * pool: that kernel sums every (query, document) pair in the same order
 * whatever its position in a tile, and gather_kernel.ts sums in that order
 * too, reading the chosen rows as they are stored.
 */
export type ExactScorer = (query: Float32Array, docIndices: ArrayLike<number>) => Float32Array;

/**
 * An {@link ExactScorer} over row-major `docs` (nd × dims). One wasm memory
 * and instance are reused across calls (grown when a call needs more), so a
 * call costs copying its documents' rows plus the kernel itself.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const score = exactScorer(new Float32Array([1, 2, 3, 4]), 2, 2);
 * deepStrictEqual(score(new Float32Array([1, 0]), [1]), new Float32Array([3]));
 * ```
 */
export function exactScorer(docs: Float32Array, nd: number, dims: number): ExactScorer {
  if (docs.length !== nd * dims) throw new Error(`docs: expected ${nd}×${dims} values`);
  const dp = Math.ceil(dims / 4) * 4;
  const memory = new WebAssembly.Memory({ initial: 1 });
  const instance = new WebAssembly.Instance(gatherModule(), { env: { memory } });
  const gather = instance.exports.gather as (...a: number[]) => void;
  return (query, docIndices) => {
    if (query.length !== dims) throw new Error(`query: expected ${dims} values`);
    const m = docIndices.length;
    const out = new Float32Array(m);
    if (m === 0 || dims === 0) return out;
    // Query row, then the chosen rows (a multiple of four), then the output;
    // every row zero-padded to dp, since the kernel reads whole vectors of 4.
    const rows = Math.ceil(m / GATHER_ROWS) * GATHER_ROWS;
    const dOff = dp, oOff = dp + rows * dp, need = (oOff + rows) * 4;
    if (need > memory.buffer.byteLength) {
      memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
    }
    const f32 = new Float32Array(memory.buffer, 0, need / 4);
    f32.set(query, 0);
    f32.fill(0, dims, dp);
    for (let j = 0; j < m; j++) {
      const d = docIndices[j];
      if (!(d >= 0 && d < nd)) throw new Error(`document index ${d} outside 0..${nd - 1}`);
      const o = dOff + j * dp;
      f32.set(docs.subarray(d * dims, (d + 1) * dims), o);
      if (dp > dims) f32.fill(0, o + dims, o + dp);
    }
    f32.fill(0, dOff + m * dp, oOff + rows); // padding rows, then the output (added into)
    gather(0, dOff * 4, oOff * 4, rows, dp);
    out.set(f32.subarray(oOff, oOff + m));
    return out;
  };
}
