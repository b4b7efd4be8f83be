/**
 * A minimal WebAssembly binary writer: just the sections and instructions the
 * kit's kernels need (the similarity kernels in src/score/, the USE matmul in
 * src/embed/use_matmul_kernel.ts). Emitting bytes from TypeScript keeps them
 * buildable with no extra tool (no wabt), and the module is validated by the
 * engine when it is compiled.
 */

/** Unsigned LEB128. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (32-bit values). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  n |= 0;
  while (true) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function name(s: string): number[] {
  const bytes = [...new TextEncoder().encode(s)];
  return [...uleb(bytes.length), ...bytes];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/** Value types. */
export const I32 = 0x7f;
export const V128 = 0x7b;

/** Opcodes used by the kernels (scalar and SIMD, the latter after the 0xfd prefix). */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  i32LtU: [0x49],
  i32LtS: [0x48],
  i32Eqz: [0x45],
  select: [0x1b],
  f32Load: (offset = 0) => [0x2a, 2, ...uleb(offset)],
  f32Store: (offset = 0) => [0x38, 2, ...uleb(offset)],
  f32Add: [0x92],
  f64Load: (offset = 0) => [0x2b, 3, ...uleb(offset)],
  f64Store: (offset = 0) => [0x39, 3, ...uleb(offset)],
  f64Add: [0xa0],
  f64x2ExtractLane: (lane: number) => [0xfd, 0x21, lane],
  f64x2Add: [0xfd, ...uleb(0xf0)],
  f64x2Mul: [0xfd, ...uleb(0xf2)],
  v128Load: (offset = 0) => [0xfd, 0x00, 4, ...uleb(offset)],
  v128Store: (offset = 0) => [0xfd, 0x0b, 4, ...uleb(offset)],
  /** One f32 loaded into all four lanes. */
  v128Load32Splat: (offset = 0) => [0xfd, 0x09, 2, ...uleb(offset)],
  v128Zero: [0xfd, 0x0c, ...new Array(16).fill(0)],
  f32x4ExtractLane: (lane: number) => [0xfd, 0x1f, lane],
  f32x4Add: [0xfd, ...uleb(0xe4)],
  f32x4Mul: [0xfd, ...uleb(0xe6)],
  /** Relaxed SIMD: a * b + c with one or two roundings (hardware-dependent). */
  f32x4RelaxedMadd: [0xfd, ...uleb(0x105)],
};

/** `a + b` of two i32 expressions. */
export const i32Sum = (a: number[], b: number[]): number[] => [...a, ...b, ...op.i32Add];
/** `a * b` of two i32 expressions. */
export const i32Product = (a: number[], b: number[]): number[] => [...a, ...b, ...op.i32Mul];
/** The smaller (signed) of two i32 expressions, each evaluated twice. */
export const i32Min = (a: number[], b: number[]): number[] => [
  ...a,
  ...b,
  ...a,
  ...b,
  ...op.i32LtS,
  ...op.select,
];

/**
 * The f32 sum of a v128 local's four lanes as (l0 + l1) + (l2 + l3): the one
 * lane order of the kernels' scores (dot_kernel.ts, gather_kernel.ts).
 */
export function f32x4LaneSum(v: number): number[] {
  const lane = (l: number) => [...op.get(v), ...op.f32x4ExtractLane(l)];
  return [...lane(0), ...lane(1), ...op.f32Add, ...lane(2), ...lane(3), ...op.f32Add, ...op.f32Add];
}

/** One exported function: its signature, extra locals (grouped by type) and body. */
export interface FunctionDef {
  exportName: string;
  params: number[];
  results: number[];
  locals: [count: number, type: number][];
  body: number[];
}

/**
 * A module importing its memory as `env.memory` (so the caller sizes it) and
 * exporting the given functions.
 */
export function moduleBytes(
  functions: FunctionDef[],
  options: { shared?: boolean } = {},
): Uint8Array {
  const types = functions.map((
    f,
  ) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  // Shared memories must declare a maximum: allow the whole 4 GiB (65,536 pages).
  const limits = options.shared ? [0x03, ...uleb(1), ...uleb(65536)] : [0x00, ...uleb(1)];
  const imports = [[...name("env"), ...name("memory"), 0x02, ...limits]];
  const funcs = functions.map((_, i) => uleb(i));
  const exports = functions.map((f, i) => [...name(f.exportName), 0x00, ...uleb(i)]);
  const codes = functions.map((f) => {
    const body = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...f.body, ...op.end];
    return [...uleb(body.length), ...body];
  });
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vec(types)),
    ...section(2, vec(imports)),
    ...section(3, vec(funcs)),
    ...section(7, vec(exports)),
    ...section(10, vec(codes)),
  ]);
}
