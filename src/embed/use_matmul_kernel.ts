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
 * The module is assembled below (a few dozen instructions; no toolchain).
 * Operands are copied into its own memory, the right operand laid out with
 * its columns contiguous and padded to a multiple of 4 (no arithmetic, so no
 * bits change), and the result copied back into the output tensor.
 */
import { type KernelArgs, swapKernel } from "./tfjs_kernels.ts";

/** The block of the shared dimension the backend's fallback loop sums separately. */
const K_BLOCK = 48;

// ---- a minimal wasm encoder ----

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function name(s: string): number[] {
  const bytes = [...new TextEncoder().encode(s)];
  return [...uleb(bytes.length), ...bytes];
}

const I32 = 0x7f;
const V128 = 0x7b;

/** Instructions, as functions returning bytes (locals by index). */
const get = (l: number) => [0x20, ...uleb(l)];
const set = (l: number) => [0x21, ...uleb(l)];
const i32 = (n: number) => [0x41, ...sleb(n)];
const add = [0x6a];
const mul = [0x6c];
const ltU = [0x49];
const eqz = [0x45];
const select = [0x1b];
/** Loads and stores at the byte address on the stack (alignment hint: 4 bytes). */
const f32Load = (offset = 0) => [0x2a, 0x02, ...uleb(offset)];
const f32Store = (offset = 0) => [0x38, 0x02, ...uleb(offset)];
const simd = (op: number) => [0xfd, ...uleb(op)];
const v128Load = (offset = 0) => [...simd(0x00), 0x02, ...uleb(offset)];
const v128Store = (offset = 0) => [...simd(0x0b), 0x02, ...uleb(offset)];
const load32Splat = [...simd(0x09), 0x02, 0x00];
const v128Zero = [...simd(0x0c), ...new Array(16).fill(0)];
const f32x4Add = simd(0xe4);
const f32x4Mul = simd(0xe6);

/** `while (cond) body` (cond leaves an i32). */
function whileLoop(cond: number[], body: number[]): number[] {
  return [0x02, 0x40, 0x03, 0x40, ...cond, ...eqz, 0x0d, 1, ...body, 0x0c, 0, 0x0b, 0x0b];
}

/** local += step (i32). */
const inc = (l: number, step: number[]) => [...get(l), ...step, ...add, ...set(l)];

/**
 * `gather(src, dst, batch, rows, cols, srcRow, srcCol, dstRow, srcBatch, dstBatch)`:
 * dst[b·dstBatch + r·dstRow + c] = src[b·srcBatch + r·srcRow + c·srcCol]
 * (float elements; src and dst are byte addresses).
 */
function gatherBody(): number[] {
  const [src, dst, batch, rows, cols, sR, sC, dR, sB, dB] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const [b, r, c, ps, pd] = [10, 11, 12, 13, 14];
  const addr = (base: number, idx: number[]) => [...get(base), ...idx, ...i32(4), ...mul, ...add];
  return [
    ...vec([[5, I32]]),
    ...i32(0),
    ...set(b),
    ...whileLoop([...get(b), ...get(batch), ...ltU], [
      ...i32(0),
      ...set(r),
      ...whileLoop([...get(r), ...get(rows), ...ltU], [
        ...addr(src, [...get(b), ...get(sB), ...mul, ...get(r), ...get(sR), ...mul, ...add]),
        ...set(ps),
        ...addr(dst, [...get(b), ...get(dB), ...mul, ...get(r), ...get(dR), ...mul, ...add]),
        ...set(pd),
        ...i32(0),
        ...set(c),
        ...whileLoop([...get(c), ...get(cols), ...ltU], [
          ...get(pd),
          ...get(ps),
          ...f32Load(),
          ...f32Store(),
          ...inc(ps, [...get(sC), ...i32(4), ...mul]),
          ...inc(pd, i32(4)),
          ...inc(c, i32(1)),
        ]),
        ...inc(r, i32(1)),
      ]),
      ...inc(b, i32(1)),
    ]),
    0x0b,
  ];
}

/**
 * `bmm(a, b, out, batch, m, np, k)`: out[b][i][j] = Σ a[b][i][k]·b[b][k][j]
 * for a [batch, m, k], b [batch, k, np] and out [batch, m, np] (np a
 * multiple of 4), summed as the backend's fallback loop sums (module doc).
 * Columns go 16 at a time (four independent accumulators), then 4.
 */
function bmmBody(): number[] {
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
    ...acc.slice(0, width).flatMap((l) => [...v128Zero, ...set(l)]),
    ...i32(0),
    ...set(k0),
    ...whileLoop([...get(k0), ...get(kk), ...ltU], [
      // kend = min(k0 + 48, k)
      ...get(k0),
      ...i32(K_BLOCK),
      ...add,
      ...get(kk),
      ...get(k0),
      ...i32(K_BLOCK),
      ...add,
      ...get(kk),
      ...ltU,
      ...select,
      ...set(kend),
      ...s.slice(0, width).flatMap((l) => [...v128Zero, ...set(l)]),
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
      ...whileLoop([...get(k), ...get(kend), ...ltU], [
        ...get(pA),
        ...load32Splat,
        ...set(av),
        ...s.slice(0, width).flatMap((l, v) => [
          ...get(l),
          ...get(av),
          ...get(pB),
          ...v128Load(16 * v),
          ...f32x4Mul,
          ...f32x4Add,
          ...set(l),
        ]),
        ...inc(pA, i32(4)),
        ...inc(pB, get(rowB)),
        ...inc(k, i32(1)),
      ]),
      ...acc.slice(0, width).flatMap((l, v) => [...get(l), ...get(s[v]), ...f32x4Add, ...set(l)]),
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
      ...v128Store(16 * v),
    ]),
    ...inc(j, i32(4 * width)),
  ];

  return [
    ...vec([[12, I32], [9, V128]]),
    ...get(np),
    ...i32(4),
    ...mul,
    ...set(rowB),
    ...i32(0),
    ...set(bi),
    ...whileLoop([...get(bi), ...get(batch), ...ltU], [
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
      ...whileLoop([...get(i), ...get(m), ...ltU], [
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
          [...get(j), ...i32(16), ...add, ...get(np), ...i32(1), ...add, ...ltU],
          group(4),
        ),
        ...whileLoop([...get(j), ...get(np), ...ltU], group(1)),
        ...inc(i, i32(1)),
      ]),
      ...inc(bi, i32(1)),
    ]),
    0x0b,
  ];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const gatherType = [0x60, ...vec(new Array(10).fill([I32])), 0x00];
  const bmmType = [0x60, ...vec(new Array(7).fill([I32])), 0x00];
  const code = (body: number[]) => [...uleb(body.length), ...body];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec([gatherType, bmmType])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, ...uleb(1)]])),
    ...section(
      7,
      vec([
        [...name("memory"), 0x02, 0],
        [...name("gather"), 0x00, 0],
        [...name("bmm"), 0x00, 1],
      ]),
    ),
    ...section(10, vec([code(gatherBody()), code(bmmBody())])),
  ]);
}

interface Kernel {
  memory: WebAssembly.Memory;
  gather: (...args: number[]) => void;
  bmm: (...args: number[]) => void;
}

let kernel: Kernel | undefined;

function loadKernel(): Kernel {
  if (!kernel) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()));
    kernel = instance.exports as unknown as Kernel;
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
  if (!WebAssembly.validate(moduleBytes())) return () => {};
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
