/**
 * A SIMD BatchMatMul for the TensorFlow.js wasm backend that gives the same
 * bits as the backend's own, for the products it does not hand to XNNPACK.
 *
 * Why: the Universal Sentence Encoder's attention multiplies two computed
 * tensors (queries by keys, weights by values). The backend sends those to
 * its portable fallback loop, which reads both operands through runtime
 * strides one float at a time: about 30% of the embed stage's CPU time
 * (`deno run --cpu-prof` over 256 corpus texts). This kernel runs the same
 * arithmetic four output columns per instruction.
 *
 * Why the bits stay the same: for each output element the fallback loop
 * sums `a[i][k] * b[k][j]` in float32, k ascending, in blocks of 48 k: each
 * block's sum starts at 0, and the output (first 0) adds each block's sum in
 * turn. Wasm has no fused multiply-add, so every product and every sum is
 * rounded to float32 on its own; f32x4 lanes round exactly as scalar float32
 * does. This kernel keeps that order for every element, and only computes
 * neighbouring columns side by side. `use_matmul_kernel_test.ts` compares it
 * with the backend's own kernel bit for bit, and `use_fast_path_test.ts` the
 * whole model's vectors.
 *
 * The module is assembled below with src/common/wasm_emit.ts (no toolchain).
 * Operands are copied into its own memory, the right operand laid out with
 * its columns contiguous and padded to a multiple of 4 (no arithmetic, so no
 * bits change), and the result copied back into the output tensor.
 */
import { type KernelArgs, swapKernel } from "./tfjs_kernels.ts";
import {
  type FunctionDef,
  I32,
  i32Min,
  i32Sum,
  moduleBytes,
  op,
  V128,
} from "../common/wasm_emit.ts";

/** The block of the shared dimension the backend's fallback loop sums separately. */
const K_BLOCK = 48;

const { get, set, i32 } = op;
const add = op.i32Add;
const mul = op.i32Mul;

/** `while (cond) body` (cond leaves an i32): tested before each round, so body may run no times. */
function whileLoop(cond: number[], body: number[]): number[] {
  return [
    ...op.block,
    ...op.loop,
    ...cond,
    ...op.i32Eqz,
    ...op.brIf(1),
    ...body,
    ...op.br(0),
    ...op.end,
    ...op.end,
  ];
}

/** local += step (i32). */
const inc = (l: number, step: number[]) => [...get(l), ...step, ...add, ...set(l)];

/**
 * `gather(src, dst, batch, rows, cols, srcRow, srcCol, dstRow, srcBatch, dstBatch)`:
 * dst[b·dstBatch + r·dstRow + c] = src[b·srcBatch + r·srcRow + c·srcCol]
 * (float elements; src and dst are byte addresses).
 */
function gatherKernel(): FunctionDef {
  const [src, dst, batch, rows, cols, sR, sC, dR, sB, dB] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const [b, r, c, ps, pd] = [10, 11, 12, 13, 14];
  const addr = (base: number, idx: number[]) => [...get(base), ...idx, ...i32(4), ...mul, ...add];
  const body = [
    ...i32(0),
    ...set(b),
    ...whileLoop([...get(b), ...get(batch), ...op.i32LtU], [
      ...i32(0),
      ...set(r),
      ...whileLoop([...get(r), ...get(rows), ...op.i32LtU], [
        ...addr(src, [...get(b), ...get(sB), ...mul, ...get(r), ...get(sR), ...mul, ...add]),
        ...set(ps),
        ...addr(dst, [...get(b), ...get(dB), ...mul, ...get(r), ...get(dR), ...mul, ...add]),
        ...set(pd),
        ...i32(0),
        ...set(c),
        ...whileLoop([...get(c), ...get(cols), ...op.i32LtU], [
          ...get(pd),
          ...get(ps),
          ...op.f32Load(),
          ...op.f32Store(),
          ...inc(ps, [...get(sC), ...i32(4), ...mul]),
          ...inc(pd, i32(4)),
          ...inc(c, i32(1)),
        ]),
        ...inc(r, i32(1)),
      ]),
      ...inc(b, i32(1)),
    ]),
  ];
  return {
    exportName: "gather",
    params: new Array(10).fill(I32),
    results: [],
    locals: [[5, I32]],
    body,
  };
}

/**
 * `bmm(a, b, out, batch, m, np, k)`: out[b][i][j] = Σ a[b][i][k]·b[b][k][j]
 * for a [batch, m, k], b [batch, k, np] and out [batch, m, np] (np a
 * multiple of 4), summed as the backend's fallback loop sums (module doc).
 * Columns go 16 at a time (four independent accumulators), then 4.
 */
function bmmKernel(): FunctionDef {
  const [a, bp, out, batch, m, np, kk] = [0, 1, 2, 3, 4, 5, 6];
  const [bi, i, j, k0, kend, k, pA, pB, aRow, bBase, oRow, rowB] = [
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    16,
    17,
    18,
  ];
  const acc = [19, 20, 21, 22];
  const s = [23, 24, 25, 26];
  const av = 27;

  /** One column group of `width` vectors at column j of row i. */
  const group = (width: number) => [
    ...acc.slice(0, width).flatMap((l) => [...op.v128Zero, ...set(l)]),
    ...i32(0),
    ...set(k0),
    ...whileLoop([...get(k0), ...get(kk), ...op.i32LtU], [
      ...i32Min(i32Sum(get(k0), i32(K_BLOCK)), get(kk)),
      ...set(kend),
      ...s.slice(0, width).flatMap((l) => [...op.v128Zero, ...set(l)]),
      // pA = aRow + k0 * 4; pB = bBase + k0 * rowB + j * 4
      ...get(aRow),
      ...get(k0),
      ...i32(4),
      ...mul,
      ...add,
      ...set(pA),
      ...get(bBase),
      ...get(k0),
      ...get(rowB),
      ...mul,
      ...add,
      ...get(j),
      ...i32(4),
      ...mul,
      ...add,
      ...set(pB),
      ...get(k0),
      ...set(k),
      ...whileLoop([...get(k), ...get(kend), ...op.i32LtU], [
        ...get(pA),
        ...op.v128Load32Splat(),
        ...set(av),
        ...s.slice(0, width).flatMap((l, v) => [
          ...get(l),
          ...get(av),
          ...get(pB),
          ...op.v128Load(16 * v),
          ...op.f32x4Mul,
          ...op.f32x4Add,
          ...set(l),
        ]),
        ...inc(pA, i32(4)),
        ...inc(pB, get(rowB)),
        ...inc(k, i32(1)),
      ]),
      ...acc.slice(0, width).flatMap((
        l,
        v,
      ) => [...get(l), ...get(s[v]), ...op.f32x4Add, ...set(l)]),
      ...get(kend),
      ...set(k0),
    ]),
    ...acc.slice(0, width).flatMap((l, v) => [
      ...get(oRow),
      ...get(j),
      ...i32(4),
      ...mul,
      ...add,
      ...get(l),
      ...op.v128Store(16 * v),
    ]),
    ...inc(j, i32(4 * width)),
  ];

  const body = [
    ...get(np),
    ...i32(4),
    ...mul,
    ...set(rowB),
    ...i32(0),
    ...set(bi),
    ...whileLoop([...get(bi), ...get(batch), ...op.i32LtU], [
      // bBase = bp + bi * k * rowB
      ...get(bp),
      ...get(bi),
      ...get(kk),
      ...mul,
      ...get(rowB),
      ...mul,
      ...add,
      ...set(bBase),
      ...i32(0),
      ...set(i),
      ...whileLoop([...get(i), ...get(m), ...op.i32LtU], [
        // aRow = a + ((bi * m + i) * k) * 4; oRow = out + (bi * m + i) * rowB
        ...get(a),
        ...get(bi),
        ...get(m),
        ...mul,
        ...get(i),
        ...add,
        ...get(kk),
        ...mul,
        ...i32(4),
        ...mul,
        ...add,
        ...set(aRow),
        ...get(out),
        ...get(bi),
        ...get(m),
        ...mul,
        ...get(i),
        ...add,
        ...get(rowB),
        ...mul,
        ...add,
        ...set(oRow),
        ...i32(0),
        ...set(j),
        ...whileLoop(
          [...get(j), ...i32(16), ...add, ...get(np), ...i32(1), ...add, ...op.i32LtU],
          group(4),
        ),
        ...whileLoop([...get(j), ...get(np), ...op.i32LtU], group(1)),
        ...inc(i, i32(1)),
      ]),
      ...inc(bi, i32(1)),
    ]),
  ];
  return {
    exportName: "bmm",
    params: new Array(7).fill(I32),
    results: [],
    locals: [[12, I32], [9, V128]],
    body,
  };
}

/** The module: memory imported as `env.memory`, `gather` and `bmm` exported. */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  return moduleBytes([gatherKernel(), bmmKernel()]) as Uint8Array<ArrayBuffer>;
}

interface Kernel {
  memory: WebAssembly.Memory;
  gather: (...args: number[]) => void;
  bmm: (...args: number[]) => void;
}

let kernel: Kernel | undefined;

function loadKernel(): Kernel {
  if (!kernel) {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(kernelBytes()), {
      env: { memory },
    });
    kernel = { memory, ...instance.exports } as unknown as Kernel;
  }
  return kernel;
}

/** Bytes the kernel's memory holds at most for one slice of the batch. */
const SLICE_BYTES = 64 * 1024 * 1024;

function ensureBytes(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
}

/**
 * out = a × b (b transposed when `transposeB`) for float32 [batch, m, k] and
 * [batch, k, n] ([batch, n, k]) at byte offsets of `heap`, into `outOffset`.
 */
function batchMatMulInto(
  heap: () => Uint8Array,
  aOffset: number,
  bOffset: number,
  outOffset: number,
  batch: number,
  m: number,
  n: number,
  k: number,
  transposeB: boolean,
): void {
  const kern = loadKernel();
  const np = Math.ceil(n / 4) * 4;
  // a, b laid out, then the output's room, which first stages b as it came.
  const perBatch = 4 * (m * k + k * np + Math.max(m * np, n * k));
  const step = Math.max(1, Math.min(batch, Math.floor(SLICE_BYTES / perBatch)));
  ensureBytes(kern.memory, step * perBatch);
  for (let b0 = 0; b0 < batch; b0 += step) {
    const nb = Math.min(step, batch - b0);
    const aAt = 0;
    const bAt = aAt + 4 * nb * m * k;
    const oAt = bAt + 4 * nb * k * np;
    const own = new Uint8Array(kern.memory.buffer);
    const src = heap();
    own.set(src.subarray(aOffset + 4 * b0 * m * k, aOffset + 4 * (b0 + nb) * m * k), aAt);
    // b as [k, np] per batch, whatever its layout: copy it in whole, then
    // gather it from there (within the kernel's memory) into place.
    const bBytes = 4 * nb * n * k;
    const bStage = oAt; // the output's room, free until bmm runs
    own.set(src.subarray(bOffset + 4 * b0 * n * k, bOffset + 4 * b0 * n * k + bBytes), bStage);
    if (transposeB) kern.gather(bStage, bAt, nb, k, n, 1, k, np, n * k, k * np);
    else kern.gather(bStage, bAt, nb, k, n, n, 1, np, n * k, k * np);
    kern.bmm(aAt, bAt, oAt, nb, m, np, k);
    // Drop the padding columns in place (each row moves down or stays).
    if (np !== n) kern.gather(oAt, oAt, nb, m, n, np, 1, n, m * np, m * n);
    const result = new Uint8Array(kern.memory.buffer, oAt, 4 * nb * m * n);
    heap().set(result, outOffset + 4 * b0 * m * n);
  }
}

const sizeOf = (dims: number[]) => dims.reduce((x, y) => x * y, 1);

/**
 * Put the SIMD BatchMatMul into tfjs' registry for the wasm backend, in
 * front of the backend's own for the products that one computes in its
 * fallback loop (float32, a not transposed, the same batch dimensions, and
 * not batch size 1 with b not transposed, which goes to XNNPACK); the rest
 * goes to the backend's own. Returns a function that puts back what was
 * there. A no-op returning a no-op when tfjs or its wasm kernels are not
 * loaded yet, or wasm SIMD is missing.
 */
export function installUseMatMulKernel(): () => void {
  if (!WebAssembly.validate(kernelBytes())) return () => {};
  const restore = swapKernel("BatchMatMul", (own) => (args: KernelArgs) => {
    const { a, b } = args.inputs;
    const transposeA = args.attrs.transposeA === true;
    const transposeB = args.attrs.transposeB === true;
    const rank = a.shape.length;
    const outer = a.shape.slice(0, -2);
    const batch = sizeOf(outer);
    const m = a.shape[rank - 2];
    const k = a.shape[rank - 1];
    const n = transposeB ? b.shape[b.shape.length - 2] : b.shape[b.shape.length - 1];
    const kb = transposeB ? b.shape[b.shape.length - 1] : b.shape[b.shape.length - 2];
    const aData = args.backend.dataIdMap.get(a.dataId);
    const bData = args.backend.dataIdMap.get(b.dataId);
    const covered = a.dtype === "float32" && b.dtype === "float32" && !transposeA &&
      rank >= 2 && b.shape.length === rank && k === kb && k > 0 && aData && bData &&
      outer.every((d, i) => d === b.shape[i]) && !(batch === 1 && !transposeB);
    if (!covered) return own.kernelFunc(args);
    const out = args.backend.makeOutput([...outer, m, n], "float32");
    if (batch * m * n === 0) return out;
    // makeOutput may have grown the backend's memory: offsets stay, the buffer changes.
    const outOffset = args.backend.dataIdMap.get(out.dataId)!.memoryOffset;
    batchMatMulInto(
      () => args.backend.wasm.HEAPU8,
      aData.memoryOffset,
      bData.memoryOffset,
      outOffset,
      batch,
      m,
      n,
      k,
      transposeB,
    );
    return out;
  });
  return restore ?? (() => {});
}
