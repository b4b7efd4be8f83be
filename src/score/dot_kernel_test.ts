import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { dotScores, dotScoresParallel } from "./dot_kernel.ts";
import { xoshiro128ss } from "../common/rng.ts";

function naive(q: Float32Array, d: Float32Array, nq: number, nd: number, dims: number) {
  const out = new Float64Array(nq * nd);
  for (let i = 0; i < nq; i++) {
    for (let j = 0; j < nd; j++) {
      let s = 0;
      for (let k = 0; k < dims; k++) s += q[i * dims + k] * d[j * dims + k];
      out[i * nd + j] = s;
    }
  }
  return out;
}

function random(n: number, seed: number): Float32Array {
  const next = xoshiro128ss(seed);
  return Float32Array.from({ length: n }, () => next() / 4294967296 - 0.5);
}

Deno.test("SIMD kernel equals a naive loop on random data of awkward shapes", () => {
  for (const [nq, nd, dims] of [[1, 1, 1], [5, 7, 13], [9, 301, 1030], [4, 2, 4], [3, 129, 515]]) {
    const q = random(nq * dims, nq), d = random(nd * dims, nd);
    const got = dotScores(q, d, nq, nd, dims);
    const want = naive(q, d, nq, nd, dims);
    assertEquals(got.length, nq * nd);
    for (let i = 0; i < want.length; i++) {
      // float32 accumulation in another order: relative error ~ sqrt(dims) · 2^-24
      ok(Math.abs(got[i] - want[i]) <= 1e-5 * Math.sqrt(dims), `${nq}×${nd}×${dims} [${i}]`);
    }
  }
});

Deno.test("identical document vectors get bit-identical scores (ties stay ties)", () => {
  const dims = 777, nd = 11;
  const q = random(6 * dims, 1), one = random(dims, 2);
  const d = new Float32Array(nd * dims);
  for (let j = 0; j < nd; j++) d.set(one, j * dims);
  const s = dotScores(q, d, 6, nd, dims);
  for (let i = 0; i < 6; i++) {
    for (let j = 1; j < nd; j++) assertEquals(s[i * nd + j], s[i * nd]);
  }
});

Deno.test("threads give bit-identical scores", async () => {
  const nq = 37, nd = 203, dims = 1500;
  const q = random(nq * dims, 3), d = random(nd * dims, 4);
  const one = dotScores(q, d, nq, nd, dims);
  const two = await dotScoresParallel(q, d, nq, nd, dims, { threads: 2 });
  assertEquals(two, one);
});
