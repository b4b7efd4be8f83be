import { compiled, MR, NR, pack, runRows } from "../score/dot_kernel.ts";
import type { Grouping } from "./grouping.ts";

const roundUp = (n: number, m: number) => Math.ceil(n / m) * m;

/**
 * Resample sums per group as matrix products on the float64 SIMD kernel:
 * for a grouping whose queries are reordered so each group is a contiguous,
 * even-length (zero-padded) range, the sums of group g are
 * counts[:, range_g] · m[range_g, :]. The resample counts are packed once per
 * grouping and reused for every config; only the config's values are packed
 * per call. Exact float64 arithmetic in a fixed order, so the results are the
 * same on every machine (they can differ from a plain loop's in the last bits).
 */
export interface GroupedSums {
  /** Sums of the columns of `m` (n × C, query-major) per grouping: `out[j][(b * G + g) * C + c]`. */
  sums(m: Float64Array, C: number): Float64Array[];
}

interface Packed {
  grouping: Grouping;
  /** Query i's position on the reordered axis. */
  position: Int32Array;
  /** Start and end of each group's range on that axis. */
  ranges: [number, number][];
  width: number;
  memory: WebAssembly.Memory;
  instance: WebAssembly.Instance;
  countsBytes: number;
}

/** Build a {@link GroupedSums} over shared resample counts (B × n). */
export function groupedSums(
  counts: Uint32Array,
  n: number,
  B: number,
  groupings: readonly Grouping[],
): GroupedSums {
  const Bp = roundUp(B, MR);
  const module = compiled(false, false, "f64");
  const packed: Packed[] = groupings.map((grouping) => {
    const ranges: [number, number][] = [];
    const position = new Int32Array(n);
    let at = 0;
    for (let g = 0; g < grouping.G; g++) {
      const start = at;
      for (let i = 0; i < n; i++) if (grouping.group[i] === g) position[i] = at++;
      at = roundUp(at, 2);
      ranges.push([start, at]);
    }
    const width = Math.max(at, 2);
    const permuted = new Float64Array(B * width);
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < n; i++) permuted[b * width + position[i]] = counts[b * n + i];
    }
    const countsBytes = Bp * width * 8;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(countsBytes / 65536) + 1 });
    pack(permuted, B, width, MR, new Float64Array(memory.buffer), 0, width, 2);
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    return { grouping, position, ranges, width, memory, instance, countsBytes };
  });
  return {
    sums(m, C) {
      if (m.length !== n * C) throw new Error(`groupedSums: matrix is not ${n}×${C}`);
      const Cp = roundUp(C, NR);
      return packed.map((p) => {
        const G = p.grouping.G;
        const dBytes = Cp * p.width * 8, outBytes = G * Bp * Cp * 8;
        const need = p.countsBytes + dBytes + outBytes;
        if (p.memory.buffer.byteLength < need) {
          p.memory.grow(Math.ceil((need - p.memory.buffer.byteLength) / 65536));
        }
        const f64 = new Float64Array(p.memory.buffer);
        const dOff = p.countsBytes / 8, outOff = (p.countsBytes + dBytes) / 8;
        f64.fill(0, dOff, need / 8);
        const mt = new Float64Array(C * p.width);
        for (let i = 0; i < n; i++) {
          for (let c = 0; c < C; c++) mt[c * p.width + p.position[i]] = m[i * C + c];
        }
        pack(mt, C, p.width, NR, f64, dOff, p.width, 2);
        p.ranges.forEach((range, g) => {
          if (range[0] === range[1]) return;
          const out = p.countsBytes + dBytes + g * Bp * Cp * 8;
          runRows(module, p.memory, [0, p.countsBytes, out, Cp, p.width], 0, Bp, range, p.instance);
        });
        const result = new Float64Array(B * G * C);
        for (let b = 0; b < B; b++) {
          for (let g = 0; g < G; g++) {
            const src = outOff + g * Bp * Cp + b * Cp;
            result.set(f64.subarray(src, src + C), (b * G + g) * C);
          }
        }
        return result;
      });
    },
  };
}
