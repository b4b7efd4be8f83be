import {
  f32x4LaneSum,
  type FunctionDef,
  I32,
  i32Min,
  i32Product,
  i32Sum,
  moduleBytes,
  op,
  V128,
} from "../common/wasm_emit.ts";

/**
 * Dot products of every query vector with every document vector, by a
 * WebAssembly SIMD kernel emitted below as bytes.
 *
 * Layout and blocking: the kernel computes an MR-query × NR-document tile at
 * a time (2 × 4: eight `f32x4` accumulators fed by 2 + 4 vector loads per
 * step of four dimensions; the fastest here of 4×2, 2×4, 3×4, 4×3, 3×3, 6×2,
 * 8×1, 1×8, 2×5 and 2×6, by about 10%), over a chunk of `KC` dimensions so
 * the tile's rows stay in L1, for a block of `DB` documents so the document
 * chunk stays in L2 while every query passes over it. Each (query, document) sum is
 * accumulated in the same order whatever its position in a tile — per lane
 * within a chunk, lanes added as (l0 + l1) + (l2 + l3), chunks in order — so
 * two identical document vectors always get bit-identical scores (ties stay
 * ties). The default uses plain `f32x4.mul` + `f32x4.add`, which are exact
 * IEEE operations on every machine; `relaxed: true` uses `f32x4.relaxed_madd`
 * (fused on most CPUs, so faster, but the rounding may differ between
 * machines, which would break byte-identical tables across hosts).
 */

export const CHUNK_BYTES = 2048; // bytes of one row per dimension chunk: (MR + NR) rows × 2 KiB in L1
const DB = 128; // documents per block: 128 × 2 KiB = 256 KiB in L2
/** Register tile: MR query rows × NR documents, MR · NR accumulators. */
export const MR = 2;
export const NR = 4;

/** Element type of a kernel: float32 (scores) or float64 (bootstrap sums). */
export type Elem = "f32" | "f64";

function kernel(relaxed: boolean, elem: Elem = "f32"): FunctionDef {
  const e = elem === "f32" ? 4 : 8; // bytes per element; a v128 holds 16 / e lanes
  const KC = CHUNK_BYTES / e;
  // params: packed query panels, packed document groups, output, padded sizes
  // (rows qStart..nq of the output are computed, so threads can split the queries)
  // (and only dimensions kFrom..kTo, for sums over a contiguous range of them)
  const q = 0, d = 1, out = 2, qStart = 3, nq = 4, nd = 5, dims = 6, kFrom = 7, kTo = 8;
  // i32 locals
  const k0 = 9, kEnd = 10, d0 = 11, dEnd = 12, qi = 13, di = 14;
  const qp = 15, dp = 16, dpEnd = 17, o = 18, ndB = 19, qBase = 20;
  // v128 locals
  const acc = Array.from({ length: MR * NR }, (_, i) => 21 + i); // acc[i * NR + j]: row i, doc j
  const qv = Array.from({ length: MR }, (_, i) => 21 + MR * NR + i), dv = 21 + MR * NR + MR;
  const rows = Array.from({ length: MR }, (_, i) => i),
    cols = Array.from({ length: NR }, (_, j) => j);
  const { get, set, tee, i32 } = op;
  const min = i32Min, mul = i32Product, add = i32Sum;
  const hsum = (v: number) =>
    elem === "f32"
      ? f32x4LaneSum(v)
      : [...get(v), ...op.f64x2ExtractLane(0), ...get(v), ...op.f64x2ExtractLane(1), ...op.f64Add];
  const madd = (a: number, x: number, y: number) =>
    elem === "f64"
      ? [...get(a), ...get(x), ...get(y), ...op.f64x2Mul, ...op.f64x2Add, ...set(a)]
      : relaxed
      ? [...get(x), ...get(y), ...get(a), ...op.f32x4RelaxedMadd, ...set(a)]
      : [...get(a), ...get(x), ...get(y), ...op.f32x4Mul, ...op.f32x4Add, ...set(a)];
  const storeAdd = (offset: number, v: number) =>
    elem === "f32"
      ? [
        ...get(o),
        ...get(o),
        ...op.f32Load(offset),
        ...hsum(v),
        ...op.f32Add,
        ...op.f32Store(offset),
      ]
      : [
        ...get(o),
        ...get(o),
        ...op.f64Load(offset),
        ...hsum(v),
        ...op.f64Add,
        ...op.f64Store(offset),
      ];
  // Packed layouts (see pack): a query panel stores, per step of one
  // vector's lanes, MR × 16 bytes; a document group NR × 16 bytes. One
  // pointer per operand walks the chunk.
  const inner = [
    ...op.loop,
    ...qv.flatMap((r, i) => [...get(qp), ...op.v128Load(16 * i), ...set(r)]),
    ...get(dp),
    ...op.v128Load(0),
    ...set(dv),
    ...rows.flatMap((i) => madd(acc[i * NR], qv[i], dv)),
    ...cols.slice(1).flatMap((j) => [
      ...get(dp),
      ...op.v128Load(16 * j),
      ...set(dv),
      ...rows.flatMap((i) => madd(acc[i * NR + j], qv[i], dv)),
    ]),
    ...add(get(qp), i32(16 * MR)),
    ...set(qp),
    ...add(get(dp), i32(16 * NR)),
    ...tee(dp),
    ...get(dpEnd),
    ...op.i32LtU,
    ...op.brIf(0),
    ...op.end,
  ];
  const tile = [
    ...op.loop,
    ...get(qBase),
    ...set(qp),
    // document group di/NR starts at d + (di/NR) * dims * NR * e bytes = d + di * dims * e
    ...add(get(d), add(mul(mul(get(di), get(dims)), i32(e)), mul(get(k0), i32(NR * e)))),
    ...tee(dp),
    ...mul(add(get(kEnd), mul(get(k0), i32(-1))), i32(NR * e)),
    ...op.i32Add,
    ...set(dpEnd),
    ...acc.flatMap((a) => [...op.v128Zero, ...set(a)]),
    ...inner,
    ...add(add(get(out), mul(get(qi), get(ndB))), mul(get(di), i32(e))),
    ...set(o),
    ...rows.flatMap((r) => [
      ...cols.flatMap((j) => storeAdd(j * e, acc[r * NR + j])),
      ...add(get(o), get(ndB)),
      ...set(o),
    ]),
    ...add(get(di), i32(NR)),
    ...tee(di),
    ...get(dEnd),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
  ];
  const queries = [
    ...op.loop,
    // panel qi/MR starts at q + (qi/MR) * dims * MR * e bytes = q + qi * dims * e
    ...add(get(q), add(mul(mul(get(qi), get(dims)), i32(e)), mul(get(k0), i32(MR * e)))),
    ...set(qBase),
    ...get(d0),
    ...set(di),
    ...tile,
    ...add(get(qi), i32(MR)),
    ...tee(qi),
    ...get(nq),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
  ];
  const docBlocks = [
    ...i32(0),
    ...set(d0),
    ...op.loop,
    ...min(add(get(d0), i32(DB)), get(nd)),
    ...set(dEnd),
    ...get(qStart),
    ...set(qi),
    ...queries,
    ...get(dEnd),
    ...tee(d0),
    ...get(nd),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
  ];
  const body = [
    ...mul(get(nd), i32(e)),
    ...set(ndB),
    ...get(kFrom),
    ...set(k0),
    ...op.block,
    ...get(k0),
    ...get(kTo),
    ...op.i32LtS,
    ...op.i32Eqz,
    ...op.brIf(0),
    ...op.loop,
    ...min(add(get(k0), i32(KC)), get(kTo)),
    ...set(kEnd),
    ...docBlocks,
    ...get(kEnd),
    ...tee(k0),
    ...get(kTo),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
    ...op.end,
  ];
  return {
    exportName: "dots",
    params: [I32, I32, I32, I32, I32, I32, I32, I32, I32],
    results: [],
    locals: [[12, I32], [MR * NR + MR + 1, V128]],
    body,
  };
}

const modules = new Map<string, WebAssembly.Module>();

/** The compiled kernel; `shared` for a shared memory (threads). */
export function compiled(
  relaxed: boolean,
  shared: boolean,
  elem: Elem = "f32",
): WebAssembly.Module {
  const key = `${relaxed}/${shared}/${elem}`;
  let m = modules.get(key);
  if (!m) {
    m = new WebAssembly.Module(moduleBytes([kernel(relaxed, elem)], { shared }) as BufferSource);
    modules.set(key, m);
  }
  return m;
}

/** Whether this engine accepts relaxed SIMD (`f32x4.relaxed_madd`). */
export function relaxedSimdAvailable(): boolean {
  return WebAssembly.validate(moduleBytes([kernel(true)]) as BufferSource);
}

/** Options for {@link dotScores}. */
export interface DotOptions {
  /** Use fused relaxed multiply-add (faster; rounding may vary across machines). */
  relaxed?: boolean;
}

const roundUp = (n: number, m: number) => Math.ceil(n / m) * m;

/**
 * Row-major scores `out[q * nd + d] = dot(queries[q], docs[d])` for row-major
 * `queries` (nq × dims) and `docs` (nd × dims).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const s = dotScores(new Float32Array([1, 0]), new Float32Array([1, 2, 3, 4]), 1, 2, 2);
 * deepStrictEqual(s, new Float32Array([1, 3]));
 * ```
 */
export function dotScores(
  queries: Float32Array,
  docs: Float32Array,
  nq: number,
  nd: number,
  dims: number,
  options: DotOptions = {},
): Float32Array {
  if (queries.length !== nq * dims) throw new Error(`queries: expected ${nq}×${dims} values`);
  if (docs.length !== nd * dims) throw new Error(`docs: expected ${nd}×${dims} values`);
  const result = new Float32Array(nq * nd);
  if (nq === 0 || nd === 0 || dims === 0) return result;
  const memory = packedMemory(queries, docs, nq, nd, dims, false);
  runRows(compiled(options.relaxed ?? false, false), memory.memory, memory.base, 0, memory.qn);
  return memory.result();
}

/**
 * Run the kernel over output rows qStart..qEnd in calls of `ROWS_PER_CALL`
 * rows. V8 first runs wasm with its baseline compiler and only switches a
 * function to optimised code at its next call, so one long call would run
 * unoptimised throughout (~3× slower); short calls let the switch happen early.
 */
export function runRows(
  module: WebAssembly.Module,
  memory: WebAssembly.Memory,
  base: KernelBase,
  qStart: number,
  qEnd: number,
  kRange?: [from: number, to: number],
  instance = new WebAssembly.Instance(module, { env: { memory } }),
): void {
  const dots = instance.exports.dots as (...a: number[]) => void;
  const [q, d, out, dn, dp] = base;
  const [kFrom, kTo] = kRange ?? [0, dp];
  // A first call of one panel runs while the optimised code compiles.
  for (let r = qStart, rows = MR; r < qEnd; r += rows, rows = ROWS_PER_CALL) {
    dots(q, d, out, r, Math.min(r + rows, qEnd), dn, dp, kFrom, kTo);
  }
}

/** Kernel pointers and padded sizes: query panels, document groups, output, nd, dims. */
export type KernelBase = [q: number, d: number, out: number, nd: number, dims: number];

const ROWS_PER_CALL = 128;

/** Wasm memory holding the packed operands and the output, plus the kernel's arguments. */
export interface PackedMemory {
  memory: WebAssembly.Memory;
  /** Padded query count (a multiple of MR). */
  qn: number;
  /** Kernel pointers and padded sizes. */
  base: KernelBase;
  /** The unpadded nq × nd scores. */
  result(): Float32Array;
}

/**
 * Pack queries into MR-row panels and documents into NR-row groups, interleaved per
 * step of four dimensions, zero-padded to the tile shape (padding adds exact
 * zeros, so it changes no score).
 */
export function packedMemory(
  queries: Float32Array,
  docs: Float32Array,
  nq: number,
  nd: number,
  dims: number,
  shared: boolean,
): PackedMemory {
  const dp = roundUp(dims, 4), qn = roundUp(nq, MR), dn = roundUp(nd, NR);
  const qBytes = qn * dp * 4, dBytes = dn * dp * 4, oBytes = qn * dn * 4;
  const total = qBytes + dBytes + oBytes;
  if (total > 4 * 1024 ** 3 - 65536) {
    throw new Error(`score block of ${nq}×${nd}×${dims} does not fit in 4 GiB of wasm memory`);
  }
  const pages = Math.ceil(total / 65536);
  const memory = new WebAssembly.Memory(
    shared ? { initial: pages, maximum: pages, shared: true } : { initial: pages },
  );
  const f32 = new Float32Array(memory.buffer);
  pack(queries, nq, dims, MR, f32, 0, dp);
  pack(docs, nd, dims, NR, f32, qBytes / 4, dp);
  const oOff = (qBytes + dBytes) / 4;
  return {
    memory,
    qn,
    base: [0, qBytes, qBytes + dBytes, dn, dp],
    result() {
      const out = new Float32Array(nq * nd);
      for (let i = 0; i < nq; i++) out.set(f32.subarray(oOff + i * dn, oOff + i * dn + nd), i * nd);
      return out;
    },
  };
}

/**
 * Pack row-major `rows × dims` values into groups of `group` rows interleaved
 * per step of `lanes` dimensions (padded to `dp` dimensions), at `offset`.
 */
export function pack(
  src: ArrayLike<number>,
  rows: number,
  dims: number,
  group: number,
  dst: Float32Array | Float64Array,
  offset: number,
  dp: number,
  lanes = 4,
): void {
  for (let r = 0; r < rows; r++) {
    const g = Math.floor(r / group), slot = r % group;
    const base = offset + g * dp * group + slot * lanes;
    const row = r * dims;
    for (let k = 0; k < dims; k++) {
      dst[base + Math.floor(k / lanes) * lanes * group + (k % lanes)] = src[row + k];
    }
  }
}

/**
 * {@link dotScores} split over `threads` workers sharing one wasm memory
 * (each computes whole MR-query panels, so the scores are bit-identical to the
 * single-threaded result).
 */
export async function dotScoresParallel(
  queries: Float32Array,
  docs: Float32Array,
  nq: number,
  nd: number,
  dims: number,
  options: DotOptions & { threads?: number } = {},
): Promise<Float32Array> {
  const threads = Math.max(1, Math.min(options.threads ?? defaultThreads(), Math.ceil(nq / MR)));
  if (threads === 1 || nq * nd * dims < 1e7) return dotScores(queries, docs, nq, nd, dims, options);
  const memory = packedMemory(queries, docs, nq, nd, dims, true);
  const panels = memory.qn / MR;
  const jobs: Promise<void>[] = [];
  for (let t = 0; t < threads; t++) {
    const qStart = Math.floor((panels * t) / threads) * MR;
    const qEnd = Math.floor((panels * (t + 1)) / threads) * MR;
    const worker = new Worker(new URL("./_dot_worker.ts", import.meta.url).href, {
      type: "module",
    });
    jobs.push(
      new Promise<void>((resolve, reject) => {
        worker.onmessage = (e) => {
          worker.terminate();
          if (e.data.ok) resolve();
          else reject(new Error(`similarity kernel thread: ${e.data.error}`));
        };
        worker.onerror = (e) => {
          worker.terminate();
          reject(new Error(`similarity kernel thread: ${e.message}`));
        };
      }),
    );
    worker.postMessage({
      memory: memory.memory,
      relaxed: options.relaxed ?? false,
      base: memory.base,
      qStart,
      qEnd,
    });
  }
  await Promise.all(jobs);
  return memory.result();
}

/** Threads for the kernel: the machine's cores, at most 4 (`EXECRET_THREADS` overrides). */
export function defaultThreads(): number {
  const env = Number(Deno.env.get("EXECRET_THREADS"));
  if (Number.isInteger(env) && env > 0) return env;
  return Math.min(4, navigator.hardwareConcurrency || 1);
}
