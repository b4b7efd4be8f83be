/**
 * Copy-free Slice and SplitV kernels for the TensorFlow.js wasm backend that
 * `@energetic-ai/embeddings` runs the Universal Sentence Encoder on.
 *
 * Why: every attention layer of the model splits its fused q/k/v projection
 * ([batch, length, 3 × 512]) in three along the last axis. The backend's own
 * Slice first copies the WHOLE input out of wasm memory into a fresh JS array
 * (`readSync`), once per part, then copies row by row from that copy: about a
 * fifth of the embed stage's CPU time went there. These kernels move the same
 * bytes straight from the input's place in wasm memory to the output's
 * (`copyWithin`), so their results are the same bytes, only without the
 * detour; no arithmetic is involved, so vectors stay identical to the bit.
 *
 * The kernels are swapped into tfjs' global kernel registry (tfjs_kernels.ts).
 * Anything they do not cover (strings, rank 0, scalar or inferred sizes) goes
 * to the backend's own kernel.
 */
import {
  type KernelArgs,
  type KernelConfig,
  swapKernel,
  type TensorInfo,
  type WasmBackend,
} from "./tfjs_kernels.ts";

const BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1 };

/**
 * Copy the box `begin` + `size` of `x` into a new tensor, or undefined when
 * the case is not one this covers (the caller then uses the backend's kernel).
 */
function sliceBox(
  backend: WasmBackend,
  x: TensorInfo,
  begin: number[],
  size: number[],
): TensorInfo | undefined {
  const shape = x.shape;
  const rank = shape.length;
  const bytes = BYTES[x.dtype];
  if (!bytes || rank === 0 || begin.length !== rank || size.length !== rank) return undefined;
  for (let d = 0; d < rank; d++) {
    const b = begin[d], s = size[d];
    if (!Number.isInteger(b) || !Number.isInteger(s) || b < 0 || s < 0 || b + s > shape[d]) {
      return undefined;
    }
  }
  const from = backend.dataIdMap.get(x.dataId);
  if (!from) return undefined;
  const out = backend.makeOutput(size.slice(), x.dtype);
  const total = size.reduce((a, b) => a * b, 1);
  if (total === 0) return out;
  // Element strides of the input.
  const strides = new Array<number>(rank);
  strides[rank - 1] = 1;
  for (let d = rank - 2; d >= 0; d--) strides[d] = strides[d + 1] * shape[d + 1];
  // Trailing axes taken whole join the innermost axis into one contiguous run.
  let k = rank - 1;
  while (k > 0 && size[k] === shape[k]) k--;
  const run = size[k] * strides[k] * bytes;
  // Read the heap only now: makeOutput may have grown wasm memory (a new buffer).
  const heap = backend.wasm.HEAPU8;
  const src0 = from.memoryOffset + begin[k] * strides[k] * bytes;
  let dst = backend.dataIdMap.get(out.dataId)!.memoryOffset;
  // Odometer over the outer axes 0..k-1, in row-major order like the output.
  const idx = new Array<number>(k).fill(0);
  for (;;) {
    let src = src0;
    for (let d = 0; d < k; d++) src += (begin[d] + idx[d]) * strides[d] * bytes;
    heap.copyWithin(dst, src, src + run);
    dst += run;
    let d = k - 1;
    while (d >= 0 && ++idx[d] === size[d]) idx[d--] = 0;
    if (d < 0) break;
  }
  return out;
}

function asIntArray(v: unknown): number[] | undefined {
  return Array.isArray(v) && v.every((n) => Number.isInteger(n)) ? v as number[] : undefined;
}

/** SplitV by copy-free slices, or the backend's own `splitV` for a case this does not cover. */
function splitInto(args: KernelArgs, splitV: KernelConfig): TensorInfo | TensorInfo[] {
  const x = args.inputs.x;
  const rank = x.shape.length;
  const axisAttr = args.attrs.axis;
  const axis = typeof axisAttr === "number" ? (axisAttr < 0 ? axisAttr + rank : axisAttr) : -1;
  const n = x.shape[axis];
  const splits = args.attrs.numOrSizeSplits;
  // Sizes given outright and adding up (an inferred -1 or a count goes to the original).
  const sizes = asIntArray(splits);
  if (
    !BYTES[x.dtype] || !args.backend.dataIdMap.get(x.dataId) || axis < 0 || axis >= rank ||
    !sizes || sizes.some((s) => s < 0) || sizes.reduce((a, b) => a + b, 0) !== n
  ) {
    return splitV.kernelFunc(args);
  }
  const begin = new Array<number>(rank).fill(0);
  const outs: TensorInfo[] = [];
  for (const s of sizes) {
    const size = x.shape.slice();
    size[axis] = s;
    // Cannot fail here: dtype and bounds were checked above.
    outs.push(sliceBox(args.backend, x, begin.slice(), size)!);
    begin[axis] += s;
  }
  return outs;
}

/**
 * Put the copy-free Slice and SplitV into tfjs' registry for the wasm
 * backend, in front of the backend's own (the fallbacks); returns a function
 * that puts back what was there (the tests compare both). A no-op returning
 * a no-op when tfjs or its wasm kernels are not loaded yet: call it after
 * `initModel`.
 */
export function installUseSliceKernels(): () => void {
  const restoreSlice = swapKernel("Slice", (slice) => (args) => {
    const begin = asIntArray(args.attrs.begin);
    const size = asIntArray(args.attrs.size);
    return (begin && size && sliceBox(args.backend, args.inputs.x, begin, size)) ||
      slice.kernelFunc(args);
  });
  const restoreSplitV = swapKernel("SplitV", (splitV) => (args) => splitInto(args, splitV));
  return () => {
    restoreSplitV?.();
    restoreSlice?.();
  };
}
