import { compiled, MR, NR, runRows } from "./dot_kernel.ts";

/**
 * Scores of one query against a chosen few documents by the fixed-order
 * kernel of dot_kernel.ts, bit-identical to the corresponding entries of
 * {@link dotScores} over the whole pool: the kernel sums every (query,
 * document) pair in the same order whatever its position in a tile, so
 * gathering the chosen documents into a small block changes no bit.
 */
export type ExactScorer = (query: Float32Array, docIndices: ArrayLike<number>) => Float32Array;

/**
 * An {@link ExactScorer} over row-major `docs` (nd × dims). One wasm memory
 * and instance are reused across calls (grown when a call needs more), so a
 * call costs packing its documents plus the kernel itself.
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
  const module = compiled(false, false);
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  return (query, docIndices) => {
    if (query.length !== dims) throw new Error(`query: expected ${dims} values`);
    const m = docIndices.length;
    const out = new Float32Array(m);
    if (m === 0 || dims === 0) return out;
    const dn = Math.ceil(m / NR) * NR;
    const qBytes = MR * dp * 4, dBytes = dn * dp * 4, oBytes = MR * dn * 4;
    const need = qBytes + dBytes + oBytes;
    if (need > memory.buffer.byteLength) {
      memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
    }
    const f32 = new Float32Array(memory.buffer, 0, need / 4);
    // Query panel (MR rows interleaved per 4 dims): row 0 is the query, the
    // other rows are zeros (written here, as the memory is shared by calls).
    for (let s = 0; s < dp / 4; s++) {
      for (let l = 0; l < 4; l++) f32[s * 4 * MR + l] = s * 4 + l < dims ? query[s * 4 + l] : 0;
      for (let l = 4; l < 4 * MR; l++) f32[s * 4 * MR + l] = 0;
    }
    // Document groups of NR rows interleaved per 4 dims (the layout of
    // dot_kernel.ts's pack); padding rows and dims are zeros, as the kernel
    // reads them.
    const dOff = qBytes / 4, full = dims >> 2;
    for (let j = 0; j < dn; j++) {
      const base = dOff + Math.floor(j / NR) * dp * NR + (j % NR) * 4;
      if (j >= m) {
        for (let o = base; o < base + dp * NR; o += 4 * NR) {
          f32[o] =
            f32[o + 1] =
            f32[o + 2] =
            f32[o + 3] =
              0;
        }
        continue;
      }
      const d = docIndices[j];
      if (!(d >= 0 && d < nd)) throw new Error(`document index ${d} outside 0..${nd - 1}`);
      let r = d * dims;
      for (let s = 0, o = base; s < full; s++, o += 4 * NR, r += 4) {
        f32[o] = docs[r];
        f32[o + 1] = docs[r + 1];
        f32[o + 2] = docs[r + 2];
        f32[o + 3] = docs[r + 3];
      }
      if (dims % 4) {
        const o = base + full * 4 * NR;
        for (let l = 0; l < 4; l++) f32[o + l] = full * 4 + l < dims ? docs[r + l] : 0;
      }
    }
    // The kernel adds into the output.
    f32.fill(0, (qBytes + dBytes) / 4, need / 4);
    runRows(module, memory, [0, qBytes, qBytes + dBytes, dn, dp], 0, MR, undefined, instance);
    out.set(f32.subarray((qBytes + dBytes) / 4, (qBytes + dBytes) / 4 + m));
    return out;
  };
}
