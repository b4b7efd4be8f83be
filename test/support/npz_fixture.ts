/**
 * Test helpers for the `.npz` reader: run numpy to write real archives, and
 * build `.npy` bytes and stored ZIP archives in TypeScript (so the reader is
 * checked against both numpy's output and hand-made zip64 layouts).
 *
 * @module
 */
import { readNpz } from "../../src/release/npz.ts";
import { crc32 } from "../../src/release/zip_entries.ts";
import type { NdArray } from "../../src/release/npy.ts";

/**
 * The Python the tests write real archives with: whichever `python3` PATH
 * finds, as a user's machine has it (it needs numpy).
 */
export const PYTHON = "python3";

/** Whether `PYTHON` runs and imports numpy (tests needing it are ignored otherwise). */
export async function numpyAvailable(): Promise<boolean> {
  try {
    const out = await new Deno.Command(PYTHON, { args: ["-c", "import numpy"], stderr: "null" })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

/**
 * Run a Python program in `cwd`; its stdout. A missing `python3` or numpy is
 * one line saying what to install; any other failure carries Python's stderr.
 */
export async function runPython(code: string, cwd: string): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(PYTHON, {
      args: ["-c", code],
      cwd,
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new Error(`${PYTHON} not found on PATH: install Python 3 with numpy to write .npz files`);
  }
  const stderr = new TextDecoder().decode(out.stderr);
  if (!out.success && /No module named '?numpy/.test(stderr)) {
    throw new Error(`${PYTHON} on PATH cannot import numpy: install numpy for it`);
  }
  if (!out.success) throw new Error(`python failed: ${stderr}`);
  return new TextDecoder().decode(out.stdout);
}

/**
 * `.npy` bytes (format 1.0 unless `version` says) for a descr, shape and raw
 * data. A descr starting with `[` is written as a Python list (a structured dtype).
 */
export function npyBytes(
  descr: string,
  shape: number[],
  body: Uint8Array,
  options: { fortran?: boolean; version?: 1 | 2 | 3 } = {},
): Uint8Array {
  const version = options.version ?? 1;
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  const descrText = descr.startsWith("[") ? descr : `'${descr}'`;
  let header = `{'descr': ${descrText}, 'fortran_order': ${
    options.fortran ? "True" : "False"
  }, 'shape': ${shapeText}, }`;
  const pre = version === 1 ? 10 : 12;
  header += " ".repeat(63 - ((pre + header.length) % 64)) + "\n";
  const head = new Uint8Array(pre + header.length);
  head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(head.buffer);
  if (version === 1) view.setUint16(8, header.length, true);
  else view.setUint32(8, header.length, true);
  head.set(new TextEncoder().encode(header), pre);
  return concat([head, body]);
}

/** Little-endian float32 bytes of values. */
export function f32Bytes(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

/** UTF-32LE fixed-width bytes (numpy `<U<width>`). */
export function utf32Bytes(values: string[], width: number): Uint8Array {
  const out = new Uint8Array(values.length * width * 4);
  const view = new DataView(out.buffer);
  values.forEach((s, i) => {
    [...s].forEach((ch, k) => view.setUint32((i * width + k) * 4, ch.codePointAt(0)!, true));
  });
  return out;
}

/**
 * A ZIP archive of stored entries. `zip64` writes 0xFFFFFFFF sizes and
 * offsets in the central directory with a zip64 extra field, and a zip64
 * end record, as large numpy archives have.
 */
export function storedZip(
  entries: { name: string; data: Uint8Array }[],
  options: { zip64?: boolean } = {},
): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const crc = crc32(e.data);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, e.data.length, true);
    lv.setUint32(22, e.data.length, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const extra = options.zip64 ? new Uint8Array(4 + 24) : new Uint8Array(0);
    if (options.zip64) {
      const xv = new DataView(extra.buffer);
      xv.setUint16(0, 0x0001, true);
      xv.setUint16(2, 24, true);
      xv.setBigUint64(4, BigInt(e.data.length), true);
      xv.setBigUint64(12, BigInt(e.data.length), true);
      xv.setBigUint64(20, BigInt(offset), true);
    }
    const cd = new Uint8Array(46 + name.length + extra.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 45, true);
    cv.setUint16(6, 45, true);
    cv.setUint16(12, 0x6000, true); // 12:00:00
    cv.setUint16(14, (44 << 9) | (3 << 5) | 9, true); // 2024-03-09
    cv.setUint32(16, crc, true);
    const big = options.zip64 ? 0xffffffff : null;
    cv.setUint32(20, big ?? e.data.length, true);
    cv.setUint32(24, big ?? e.data.length, true);
    cv.setUint16(28, name.length, true);
    cv.setUint16(30, extra.length, true);
    cv.setUint32(42, big ?? offset, true);
    cd.set(name, 46);
    cd.set(extra, 46 + name.length);
    parts.push(local, e.data);
    central.push(cd);
    offset += local.length + e.data.length;
  }
  const cdBytes = concat(central);
  const tail: Uint8Array[] = [];
  if (options.zip64) {
    const rec = new Uint8Array(56);
    const rv = new DataView(rec.buffer);
    rv.setUint32(0, 0x06064b50, true);
    rv.setBigUint64(4, 44n, true);
    rv.setUint16(12, 45, true);
    rv.setUint16(14, 45, true);
    rv.setBigUint64(24, BigInt(entries.length), true);
    rv.setBigUint64(32, BigInt(entries.length), true);
    rv.setBigUint64(40, BigInt(cdBytes.length), true);
    rv.setBigUint64(48, BigInt(offset), true);
    const loc = new Uint8Array(20);
    const locv = new DataView(loc.buffer);
    locv.setUint32(0, 0x07064b50, true);
    locv.setBigUint64(8, BigInt(offset + cdBytes.length), true);
    locv.setUint32(16, 1, true);
    tail.push(rec, loc);
  }
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, options.zip64 ? 0xffff : entries.length, true);
  ev.setUint16(10, options.zip64 ? 0xffff : entries.length, true);
  ev.setUint32(12, options.zip64 ? 0xffffffff : cdBytes.length, true);
  ev.setUint32(16, options.zip64 ? 0xffffffff : offset, true);
  return concat([...parts, cdBytes, ...tail, eocd]);
}

/**
 * Rewrite an `.npz` after `edit` changes its arrays in place, as a stored
 * archive: what a test needs to alter a released matrix without numpy.
 * Float (`f4`, `f8`) and unicode (`U`) arrays only, little-endian.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { readNpz } from "../../src/release/npz.ts";
 * import { f32Bytes, npyBytes, storedZip, rewriteNpz } from "./npz_fixture.ts";
 * const npz = storedZip([{ name: "q.npy", data: npyBytes("<f4", [2], f32Bytes([1, 2])) }]);
 * const out = await rewriteNpz(npz, "q.npz", (a) => a.get("q")!.data[0] = 5);
 * deepStrictEqual([...(await readNpz(out, "q.npz")).get("q")!.data], [5, 2]);
 * ```
 */
export async function rewriteNpz(
  bytes: Uint8Array,
  file: string,
  edit: (arrays: Map<string, NdArray>) => void,
): Promise<Uint8Array> {
  const arrays = await readNpz(bytes, file);
  edit(arrays);
  return storedZip([...arrays.values()].map((a) => {
    let body: Uint8Array;
    if (
      (a.dtype === "<f4" && a.data instanceof Float32Array) ||
      (a.dtype === "<f8" && a.data instanceof Float64Array)
    ) {
      body = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
    } else if (/^<U\d+$/.test(a.dtype) && Array.isArray(a.data)) {
      body = utf32Bytes(a.data, Number(a.dtype.slice(2)));
    } else throw new Error(`${file}: array ${a.name}: rewriteNpz does not write ${a.dtype}`);
    return { name: `${a.name}.npy`, data: npyBytes(a.dtype, a.shape, body) };
  }));
}

/** The bytes of several arrays, one after another. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
