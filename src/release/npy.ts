/**
 * The `.npy` format (versions 1, 2 and 3) of one array of an `.npz`: its
 * header dict and its values, decoded to native arrays in C order. Pickled
 * object arrays are refused, never unpickled.
 *
 * @module
 */
/** The values of one array, row-major (C order) whatever the file's order. */
export type NdData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array
  | string[];

/**
 * One array of an `.npz`. `dtype` is the file's descr (`<f4`, `>f8`, `<f2`,
 * `<U12`, `|S8`, `|b1`, ...); `data` holds native values: floats of any
 * width or byte order become Float32Array (`f2`, `f4`) or Float64Array
 * (`f8`), `b1` becomes Uint8Array of 0/1, strings become `string[]` with
 * trailing NULs stripped.
 */
export interface NdArray {
  name: string;
  dtype: string;
  shape: number[];
  data: NdData;
}

/** The header dictionary of an `.npy` file. */
interface NpyHeader {
  descr: string;
  fortranOrder: boolean;
  shape: number[];
}

/**
 * Parse one `.npy` file's bytes (format 1.0, 2.0 or 3.0). `where` starts
 * every error ("<file>: array <name>").
 */
export function parseNpy(raw: Uint8Array, name: string, where: string): NdArray {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
  if (raw.length < 10 || magic.some((b, i) => raw[i] !== b)) {
    throw new Error(`${where}: not an .npy file (bad magic)`);
  }
  const major = raw[6];
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  let headerLen: number, headerStart: number;
  if (major === 1) [headerLen, headerStart] = [view.getUint16(8, true), 10];
  else if (major === 2 || major === 3) {
    if (raw.length < 12) throw new Error(`${where}: .npy header truncated`);
    [headerLen, headerStart] = [view.getUint32(8, true), 12];
  } else throw new Error(`${where}: .npy format version ${major}.${raw[7]} is not 1, 2 or 3`);
  const dataStart = headerStart + headerLen;
  if (dataStart > raw.length) throw new Error(`${where}: .npy header truncated`);
  const text = new TextDecoder(major === 3 ? "utf-8" : "latin1")
    .decode(raw.subarray(headerStart, dataStart));
  const header = npyHeader(text, where);
  const count = header.shape.reduce((a, b) => a * b, 1);
  const body = raw.subarray(dataStart);
  let data = decodeValues(body, header.descr, count, where);
  // Fortran order stores the reversed shape in C order; transposing gives row-major.
  if (header.fortranOrder && header.shape.length > 1) {
    data = transposeAll(data, [...header.shape].reverse());
  }
  return { name, dtype: header.descr, shape: header.shape, data };
}

/** Parse the header dict: `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }`. */
function npyHeader(text: string, where: string): NpyHeader {
  let value: unknown;
  try {
    value = new PyLiteral(text).parse();
  } catch (e) {
    throw new Error(`${where}: unreadable .npy header (${(e as Error).message})`);
  }
  const h = value as Record<string, unknown>;
  if (!h || typeof h !== "object" || Array.isArray(h)) {
    throw new Error(`${where}: .npy header is not a dict`);
  }
  if (typeof h.descr !== "string") {
    throw new Error(`${where}: structured dtype ${JSON.stringify(h.descr)} is not supported`);
  }
  if (typeof h.fortran_order !== "boolean") {
    throw new Error(`${where}: .npy header has no boolean fortran_order`);
  }
  const shape = h.shape;
  if (
    !Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && (d as number) >= 0)
  ) throw new Error(`${where}: .npy header shape ${JSON.stringify(shape)} is not a tuple of ints`);
  return { descr: h.descr, fortranOrder: h.fortran_order, shape: shape as number[] };
}

/**
 * A parser for the Python literals an .npy header may hold (dicts, tuples,
 * lists, quoted strings, ints, True/False/None) — never `eval`.
 */
class PyLiteral {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): unknown {
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) {
      throw new Error(`unexpected "${this.s.slice(this.i, this.i + 10)}"`);
    }
    return v;
  }

  private ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  private value(): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === "{") return this.dict();
    if (c === "(" || c === "[") return this.seq(c === "(" ? ")" : "]");
    if (c === "'" || c === '"') return this.str();
    const m = /^(True|False|None|-?\d+L?)/.exec(this.s.slice(this.i));
    if (!m) throw new Error(`unexpected "${this.s.slice(this.i, this.i + 10)}"`);
    this.i += m[0].length;
    if (m[0] === "True") return true;
    if (m[0] === "False") return false;
    if (m[0] === "None") return null;
    return Number(m[0].replace("L", ""));
  }

  private expect(c: string) {
    this.ws();
    if (this.s[this.i] !== c) throw new Error(`expected "${c}" at ${this.i}`);
    this.i++;
  }

  private dict(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.expect("{");
    for (;;) {
      this.ws();
      if (this.s[this.i] === "}") break;
      const key = this.value();
      if (typeof key !== "string") throw new Error("dict key is not a string");
      this.expect(":");
      out[key] = this.value();
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "}") throw new Error(`expected "," or "}" at ${this.i}`);
    }
    this.i++;
    return out;
  }

  private seq(close: string): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) break;
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== close) throw new Error(`expected "," or "${close}" at ${this.i}`);
    }
    this.i++;
    return out;
  }

  private str(): string {
    const q = this.s[this.i++];
    let out = "";
    while (this.i < this.s.length && this.s[this.i] !== q) {
      if (this.s[this.i] === "\\") this.i++;
      out += this.s[this.i++];
    }
    if (this.i >= this.s.length) throw new Error("unterminated string");
    this.i++;
    return out;
  }
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Decode `count` values of type `descr` from the data section. */
function decodeValues(body: Uint8Array, descr: string, count: number, where: string): NdData {
  const m = /^([<>|=])([a-zA-Z])(\d*)$/.exec(descr);
  if (!m) throw new Error(`${where}: dtype ${descr} is not supported`);
  const [, order, kind, widthText] = m;
  if (kind === "O") {
    throw new Error(
      `${where}: dtype ${descr} holds Python objects (a pickle); refusing to unpickle`,
    );
  }
  const width = Number(widthText);
  const littleFile = order === "<" || order === "|" || (order === "=" && LITTLE_ENDIAN_HOST);
  const needed = kind === "U" ? count * width * 4 : count * width;
  if (!Number.isSafeInteger(needed) || body.length < needed) {
    throw new Error(
      `${where}: data holds ${body.length} bytes, dtype ${descr} × ${count} needs ${needed}`,
    );
  }
  if (kind === "U") return utf32Strings(body, count, width, littleFile);
  if (kind === "S" || kind === "a") return byteStrings(body, count, width);
  // Copy into a fresh aligned buffer in host byte order.
  // A fresh buffer of exactly the array's size: `slice` of a Buffer-backed
  // view (as the inflater may hand back) shares a larger pool buffer.
  const bytes = new Uint8Array(needed);
  bytes.set(body.subarray(0, needed));
  if (width > 1 && littleFile !== LITTLE_ENDIAN_HOST) swapBytes(bytes, width);
  const buf = bytes.buffer;
  switch (`${kind}${width}`) {
    case "f2":
      return halfToFloat(new Uint16Array(buf));
    case "f4":
      return new Float32Array(buf);
    case "f8":
      return new Float64Array(buf);
    case "i1":
      return new Int8Array(buf);
    case "i2":
      return new Int16Array(buf);
    case "i4":
      return new Int32Array(buf);
    case "i8":
      return new BigInt64Array(buf);
    case "u1":
    case "b1":
      return new Uint8Array(buf);
    case "u2":
      return new Uint16Array(buf);
    case "u4":
      return new Uint32Array(buf);
    case "u8":
      return new BigUint64Array(buf);
  }
  throw new Error(`${where}: dtype ${descr} is not supported`);
}

function swapBytes(bytes: Uint8Array, width: number) {
  for (let i = 0; i < bytes.length; i += width) {
    for (let a = i, b = i + width - 1; a < b; a++, b--) {
      const t = bytes[a];
      bytes[a] = bytes[b];
      bytes[b] = t;
    }
  }
}

/** IEEE half-precision bits to float32 (exact: every half is a float32). */
function halfToFloat(h: Uint16Array): Float32Array {
  const out = new Float32Array(h.length);
  for (let i = 0; i < h.length; i++) {
    const x = h[i];
    const sign = x & 0x8000 ? -1 : 1;
    const exp = (x >> 10) & 0x1f;
    const frac = x & 0x3ff;
    if (exp === 0) out[i] = sign * frac * 2 ** -24;
    else if (exp === 31) out[i] = frac ? NaN : sign * Infinity;
    else out[i] = sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return out;
}

/** numpy `U<n>`: n UTF-32 code units per element, trailing NULs dropped. */
function utf32Strings(body: Uint8Array, count: number, width: number, little: boolean): string[] {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const cps: number[] = [];
    for (let k = 0; k < width; k++) cps.push(view.getUint32((i * width + k) * 4, little));
    while (cps.length && cps[cps.length - 1] === 0) cps.pop();
    out[i] = String.fromCodePoint(...cps);
  }
  return out;
}

/** numpy `S<n>`: n bytes per element, trailing NULs dropped, read as UTF-8. */
function byteStrings(body: Uint8Array, count: number, width: number): string[] {
  const dec = new TextDecoder();
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    let end = (i + 1) * width;
    while (end > i * width && body[end - 1] === 0) end--;
    out[i] = dec.decode(body.subarray(i * width, end));
  }
  return out;
}

/** Reverse all axes of a C-order array of shape `shape` (the transpose numpy's `.T` gives). */
function transposeAll(data: NdData, shape: number[]): NdData {
  const n = data.length;
  const out = (Array.isArray(data) ? new Array(n) : new (data.constructor as {
    new (n: number): Exclude<NdData, string[]>;
  })(n)) as NdData;
  const rank = shape.length;
  // Strides of the source (C order over `shape`) and of the result (C order over the reverse).
  const src = new Array<number>(rank);
  src[rank - 1] = 1;
  for (let a = rank - 2; a >= 0; a--) src[a] = src[a + 1] * shape[a + 1];
  const idx = new Array<number>(rank).fill(0);
  for (let o = 0; o < n; o++) {
    // idx is the result's index, most significant axis first; it reads source axes reversed.
    let s = 0;
    for (let a = 0; a < rank; a++) s += idx[a] * src[rank - 1 - a];
    (out as unknown as { [i: number]: unknown })[o] =
      (data as unknown as { [i: number]: unknown })[s];
    for (let a = rank - 1; a >= 0; a--) {
      if (++idx[a] < shape[rank - 1 - a]) break;
      idx[a] = 0;
    }
  }
  return out;
}
