import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { npzWrittenAt, readNpz } from "./npz.ts";
import { crc32 } from "./zip_entries.ts";
import type { NdArray } from "./npy.ts";
import {
  f32Bytes,
  npyBytes,
  numpyAvailable,
  runPython,
  storedZip,
  utf32Bytes,
} from "../../test/support/npz_fixture.ts";

const HAS_NUMPY = await numpyAvailable();

/** Expect `p` to fail with one line matching `pattern`. */
async function expectError(p: Promise<unknown>, pattern: RegExp): Promise<void> {
  await rejects(p, (e: Error) => {
    ok(!e.message.includes("\n"), `not one line: ${e.message}`);
    ok(pattern.test(e.message), `${JSON.stringify(e.message)} !~ ${pattern}`);
    return true;
  });
}

/** Plain values of an array, for comparing with numpy's `tolist()` (flattened). */
function plain(a: NdArray): unknown[] {
  return Array.from(a.data as ArrayLike<unknown>, (v) => typeof v === "bigint" ? Number(v) : v);
}

// numpy writes each archive and, beside it, the values it holds as JSON
// (float32 values via tolist() are exact doubles, so equality is exact).
const WRITE_ARCHIVES = `
import json, numpy as np, zipfile
rng = np.random.default_rng(7)
arrays = {
  "q_emb": rng.standard_normal((5, 3)).astype("<f4"),
  "corpus_f64": rng.standard_normal((7, 3)),
  "half": rng.standard_normal((2, 4)).astype("<f2"),
  "big_endian": rng.standard_normal((3, 2)).astype(">f4"),
  "fortran": np.asfortranarray(rng.standard_normal((4, 3)).astype("<f4")),
  "cube_f": np.asfortranarray(np.arange(24, dtype="<i4").reshape(2, 3, 4)),
  "query_ids": np.array(["q1", "q22", "q\\u00e9\\u4e2d\\U0001F600", ""]),
  "bytes_ids": np.array([b"c1", b"c22", b"c333"]),
  "ints": np.array([-3, 2**40, 7], dtype="<i8"),
  "flags": np.array([True, False, True]),
  "scalar": np.float64(2.5),
}
np.savez("plain.npz", **arrays)
np.savez_compressed("packed.npz", **arrays)
expected = {}
for k, v in arrays.items():
  values = (v.astype("<f4") if v.dtype.str == "<f2" else v).ravel(order="C").tolist()
  values = [x.decode() if isinstance(x, bytes) else int(x) if isinstance(x, bool) else x for x in values]
  expected[k] = {"dtype": v.dtype.str, "shape": list(v.shape), "values": values}
json.dump(expected, open("expected.json", "w"))
# zip64 local headers (force_zip64) with .npy format 2.0 and 3.0 entries
with zipfile.ZipFile("zip64.npz", "w", compression=zipfile.ZIP_DEFLATED) as z:
  for name, version in [("v2", (2, 0)), ("v3", (3, 0))]:
    with z.open(name + ".npy", "w", force_zip64=True) as f:
      np.lib.format.write_array(f, arrays["q_emb"], version=version)
np.savez("objects.npz", ids=np.array(["a", 1, None], dtype=object), ok=np.zeros(2))
print(zipfile.ZipFile("packed.npz").infolist()[0].compress_type)
`;

Deno.test({
  name: "readNpz reads np.savez and np.savez_compressed archives as numpy wrote them",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      assertEquals((await runPython(WRITE_ARCHIVES, dir)).trim(), "8"); // deflate really used
      const expected = JSON.parse(await Deno.readTextFile(join(dir, "expected.json")));
      for (const file of ["plain.npz", "packed.npz"]) {
        const path = join(dir, file);
        const arrays = await readNpz(await Deno.readFile(path), path);
        assertEquals([...arrays.keys()].sort(), Object.keys(expected).sort());
        for (
          const [name, want] of Object.entries(expected) as [string, Record<string, unknown>][]
        ) {
          const a = arrays.get(name)!;
          assertEquals(
            [a.name, a.dtype, a.shape],
            [name, want.dtype, want.shape],
            `${file} ${name}`,
          );
          assertEquals(plain(a), want.values, `${file} ${name} values`);
        }
        // half floats come back as float32, big-endian bytes in host order
        ok(arrays.get("half")!.data instanceof Float32Array);
        ok(arrays.get("big_endian")!.data instanceof Float32Array);
        ok(arrays.get("corpus_f64")!.data instanceof Float64Array);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "readNpz reads zip64 entries and .npy format 2.0 and 3.0",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await runPython(WRITE_ARCHIVES, dir);
      const expected = JSON.parse(await Deno.readTextFile(join(dir, "expected.json")));
      const path = join(dir, "zip64.npz");
      const arrays = await readNpz(await Deno.readFile(path), path);
      for (const name of ["v2", "v3"]) {
        assertEquals(arrays.get(name)!.shape, [5, 3]);
        assertEquals(plain(arrays.get(name)!), expected.q_emb.values);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "readNpz refuses a pickled object array with one line naming file and array",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await runPython(WRITE_ARCHIVES, dir);
      const path = join(dir, "objects.npz");
      await expectError(
        readNpz(await Deno.readFile(path), path),
        /objects\.npz: array ids: dtype \|O holds Python objects .*refusing to unpickle/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "readNpz names the file when numpy's archive is corrupted or truncated",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await runPython(WRITE_ARCHIVES, dir);
      const bytes = await Deno.readFile(join(dir, "plain.npz"));
      // Flip one byte inside the first array's data (stored, so the CRC must catch it).
      const bad = bytes.slice();
      bad[200] ^= 0xff;
      await expectError(readNpz(bad, "bad.npz"), /^bad\.npz: entry \S+\.npy: CRC-32 mismatch/);
      await expectError(
        readNpz(bytes.subarray(0, bytes.length - 30), "cut.npz"),
        /^cut\.npz: /,
      );
      const packed = (await Deno.readFile(join(dir, "packed.npz"))).slice();
      packed[120] ^= 0x55;
      await expectError(readNpz(packed, "packed.npz"), /^packed\.npz: entry \S+\.npy: /);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const IDS = ["c1", "c22", "c\u00e9"];
const MATRIX = [1.5, -2, 0.25, 3, 4, 5];

/** An archive built in TypeScript: a 2×3 float32 matrix (Fortran order) and 3 ids. */
function handMade(options: { zip64?: boolean } = {}): Uint8Array {
  // Fortran order: the file holds the transpose's C order.
  const fortran = [MATRIX[0], MATRIX[3], MATRIX[1], MATRIX[4], MATRIX[2], MATRIX[5]];
  return storedZip([
    { name: "emb.npy", data: npyBytes("<f4", [2, 3], f32Bytes(fortran), { fortran: true }) },
    { name: "ids.npy", data: npyBytes("<U3", [3], utf32Bytes(IDS, 3), { version: 2 }) },
    { name: "README.txt", data: new TextEncoder().encode("not an array") },
  ], options);
}

Deno.test("readNpz reads stored archives built by hand, with and without zip64 records", async () => {
  for (const zip64 of [false, true]) {
    const arrays = await readNpz(handMade({ zip64 }), "hand.npz");
    assertEquals([...arrays.keys()], ["emb", "ids"]);
    assertEquals(arrays.get("emb")!.shape, [2, 3]);
    assertEquals(Array.from(arrays.get("emb")!.data as Float32Array), MATRIX);
    assertEquals(arrays.get("ids")!.data, IDS);
  }
  assertEquals(npzWrittenAt(handMade(), "hand.npz"), "2024-03-09T12:00:00");
});

Deno.test("readNpz gives one-line errors naming the file", async () => {
  const good = handMade();
  const crcAt = good.indexOf(0x93); // first byte of emb.npy's data
  const bad = good.slice();
  bad[crcAt + 80] ^= 1;
  await expectError(readNpz(bad, "x.npz"), /^x\.npz: entry emb\.npy: CRC-32 mismatch/);
  await expectError(readNpz(new Uint8Array(100), "zero.npz"), /^zero\.npz: not a ZIP archive/);
  const structured = storedZip([{
    name: "s.npy",
    data: npyBytes("[('a', '<f4')]", [1], f32Bytes([1])),
  }]);
  await expectError(readNpz(structured, "s.npz"), /^s\.npz: array s: structured dtype/);
  const unknownType = storedZip([{ name: "c.npy", data: npyBytes("<c8", [1], new Uint8Array(8)) }]);
  await expectError(readNpz(unknownType, "c.npz"), /^c\.npz: array c: dtype <c8 is not supported/);
  const short = storedZip([{ name: "t.npy", data: npyBytes("<f4", [4], f32Bytes([1, 2])) }]);
  await expectError(readNpz(short, "t.npz"), /^t\.npz: array t: data holds 8 bytes/);
});

Deno.test("crc32 matches the standard check value and a bitwise CRC", () => {
  assertEquals(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  assertEquals(crc32(new Uint8Array(0)), 0);
  // 1,000 bytes exercise the 8-byte loop and its tail together.
  const data = Uint8Array.from({ length: 1003 }, (_, i) => (i * 7919) & 0xff);
  let slow = 0xffffffff;
  for (const b of data) {
    slow ^= b;
    for (let k = 0; k < 8; k++) slow = slow & 1 ? 0xedb88320 ^ (slow >>> 1) : slow >>> 1;
  }
  assertEquals(crc32(data), (slow ^ 0xffffffff) >>> 0);
});
