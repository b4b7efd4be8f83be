/**
 * The statistics' random numbers: xoshiro128** 1.1 (Blackman & Vigna, 2018),
 * a 32-bit generator with 128 bits of state, seeded by expanding the integer
 * seed with SplitMix64 (two outputs, each split into low and high 32-bit
 * words: s0 = lo(z1), s1 = hi(z1), s2 = lo(z2), s3 = hi(z2)). Documented and
 * small, so any language can regenerate the same resamples.
 */

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64 outputs for a seed (used only to seed xoshiro128**). */
export function splitmix64(seed: bigint, count: number): bigint[] {
  let x = seed & MASK64;
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) {
    x = (x + 0x9e3779b97f4a7c15n) & MASK64;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    out.push(z ^ (z >> 31n));
  }
  return out;
}

/**
 * A xoshiro128** generator: each call returns the next unsigned 32-bit integer.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const a = xoshiro128ss(20260510), b = xoshiro128ss(20260510);
 * strictEqual(a(), b()); // same value on every run and machine
 * const x = a();
 * strictEqual(Number.isInteger(x) && x >= 0 && x < 2 ** 32, true);
 * ```
 */
export function xoshiro128ss(seed: number | bigint): () => number {
  const [a, b] = splitmix64(BigInt(seed), 2);
  const s = new Uint32Array([
    Number(a & 0xffffffffn),
    Number(a >> 32n),
    Number(b & 0xffffffffn),
    Number(b >> 32n),
  ]);
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1; // the all-zero state is a fixed point
  return () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A uniform integer in [0, n) from a 32-bit draw by multiply-shift
 * (floor(u · n / 2³²)); its bias is below n / 2³² (2·10⁻⁷ for 939 queries).
 */
export function below(u32: number, n: number): number {
  return Math.floor((u32 * n) / 4294967296);
}
