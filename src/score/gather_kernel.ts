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
import { CHUNK_BYTES } from "./dot_kernel.ts";

/**
 * The dot products of one query with a few documents stored as plain rows,
 * summed in exactly the order of dot_kernel.ts's tiles, so every score is
 * bit-identical to the whole-pool kernel's: per chunk of `KC` dimensions,
 * four `f32x4` lanes accumulate `acc + q·d` (mul, then add: two IEEE
 * roundings), the lanes are added as (l0 + l1) + (l2 + l3), and each chunk's
 * sum is added to the output in chunk order. It differs from the tiled kernel
 * only in layout: documents are read row by row (four at a time), so the
 * re-scorer copies each chosen row with one `set` instead of interleaving it.
 */

/** Dimensions per chunk: dot_kernel.ts's chunk of float32, whose order this must follow. */
const KC = CHUNK_BYTES / 4;
/** Documents per pass (independent accumulators). */
export const GATHER_ROWS = 4;

function gatherKernel(): FunctionDef {
  // params: query row, first document row, output, rows (a multiple of 4), padded dims
  const q = 0, d = 1, out = 2, m = 3, dp = 4;
  // i32 locals
  const j = 5, k0 = 6, kEnd = 7, kb = 8, rowBytes = 9, o = 10;
  const b = [11, 12, 13, 14]; // the four rows' base pointers
  // v128 locals
  const acc = [15, 16, 17, 18], qv = 19;
  const { get, set, tee, i32 } = op;
  const add = i32Sum, mul = i32Product, min = i32Min, hsum = f32x4LaneSum;
  const inner = [
    ...op.loop,
    ...add(get(q), get(kb)),
    ...op.v128Load(0),
    ...set(qv),
    ...[0, 1, 2, 3].flatMap((r) => [
      ...get(acc[r]),
      ...get(qv),
      ...add(get(b[r]), get(kb)),
      ...op.v128Load(0),
      ...op.f32x4Mul,
      ...op.f32x4Add,
      ...set(acc[r]),
    ]),
    ...add(get(kb), i32(16)),
    ...tee(kb),
    ...mul(get(kEnd), i32(4)),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
  ];
  const chunks = [
    ...i32(0),
    ...set(k0),
    ...op.loop,
    ...min(add(get(k0), i32(KC)), get(dp)),
    ...set(kEnd),
    ...acc.flatMap((a) => [...op.v128Zero, ...set(a)]),
    ...mul(get(k0), i32(4)),
    ...set(kb),
    ...inner,
    ...[0, 1, 2, 3].flatMap((r) => [
      ...get(o),
      ...get(o),
      ...op.f32Load(4 * r),
      ...hsum(acc[r]),
      ...op.f32Add,
      ...op.f32Store(4 * r),
    ]),
    ...get(kEnd),
    ...tee(k0),
    ...get(dp),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
  ];
  const body = [
    ...mul(get(dp), i32(4)),
    ...set(rowBytes),
    ...i32(0),
    ...set(j),
    ...op.loop,
    ...add(get(d), mul(get(j), get(rowBytes))),
    ...tee(b[0]),
    ...get(rowBytes),
    ...op.i32Add,
    ...tee(b[1]),
    ...get(rowBytes),
    ...op.i32Add,
    ...tee(b[2]),
    ...get(rowBytes),
    ...op.i32Add,
    ...set(b[3]),
    ...add(get(out), mul(get(j), i32(4))),
    ...set(o),
    ...chunks,
    ...add(get(j), i32(GATHER_ROWS)),
    ...tee(j),
    ...get(m),
    ...op.i32LtS,
    ...op.brIf(0),
    ...op.end,
  ];
  return {
    exportName: "gather",
    params: [I32, I32, I32, I32, I32],
    results: [],
    locals: [[10, I32], [5, V128]],
    body,
  };
}

let module: WebAssembly.Module | undefined;

/** The compiled gather kernel (`gather(q, d, out, rows, paddedDims)`, byte pointers). */
export function gatherModule(): WebAssembly.Module {
  return module ??= new WebAssembly.Module(moduleBytes([gatherKernel()]) as BufferSource);
}
