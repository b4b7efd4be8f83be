import {
  deepStrictEqual as assertEquals,
  notDeepStrictEqual,
  ok,
  rejects,
} from "node:assert/strict";
import { dotScores } from "./dot_kernel.ts";
import { exactScorer } from "./exact_rescore.ts";
import { dotErrorBound, nearTop, twoPathScores } from "./two_path_scores.ts";
import { evaluationPlan } from "./evaluation_plan.ts";
import { evaluateQuery, poolContext } from "./evaluate_query.ts";
import { l2Normalized } from "./score_matrix.ts";
import { loadNativeGemm } from "./native_gemm.ts";
import type { Benchmark } from "./benchmark.ts";
import { xoshiro128ss } from "../common/rng.ts";

function random(n: number, seed: number): Float32Array {
  const next = xoshiro128ss(seed);
  return Float32Array.from({ length: n }, () => next() / 4294967296 - 0.5);
}

Deno.test("exact re-scoring of chosen documents is bit-identical to the whole-pool kernel", () => {
  for (const [nd, dims] of [[1, 1], [9, 5], [40, 13], [70, 515], [33, 1030]]) {
    const q = random(3 * dims, dims), d = random(nd * dims, nd);
    const full = dotScores(q, d, 3, nd, dims);
    const score = exactScorer(d, nd, dims);
    const next = xoshiro128ss(nd * dims);
    for (let i = 0; i < 3; i++) {
      // any order, repeats, growing sizes: the memory is reused and grown
      for (const m of [1, 3, nd, 2 * nd + 1]) {
        const idx = Array.from({ length: m }, () => next() % nd);
        const got = score(q.subarray(i * dims, (i + 1) * dims), idx);
        assertEquals(got, Float32Array.from(idx, (j) => full[i * nd + j]), `${nd}×${dims} q${i}`);
      }
    }
  }
  // Magnitudes from 2⁻⁶⁰ to 2⁶⁰ (products that cancel, round and go subnormal).
  const next = xoshiro128ss(3);
  const wide = (n: number) =>
    Float32Array.from({ length: n }, () => (next() / 2 ** 32 - 0.5) * 2 ** ((next() % 121) - 60));
  for (const [nd, dims] of [[7, 3], [30, 1027]]) {
    const q = wide(2 * dims), d = wide(nd * dims);
    const full = dotScores(q, d, 2, nd, dims);
    const score = exactScorer(d, nd, dims);
    const all = Array.from({ length: nd }, (_, j) => nd - 1 - j);
    for (let i = 0; i < 2; i++) {
      const got = score(q.subarray(i * dims, (i + 1) * dims), all);
      assertEquals(
        got,
        Float32Array.from(all, (j) => full[i * nd + j]),
        `wide ${nd}×${dims} q${i}`,
      );
    }
  }
});

Deno.test("the error bound covers the kernel and grows with dims and norms", () => {
  assertEquals(dotErrorBound(2 ** 24, 1, 1), Infinity);
  ok(dotErrorBound(4096, 1, 1) > 4096 * 2 ** -24 && dotErrorBound(4096, 1, 1) < 2.5e-4);
  ok(dotErrorBound(100, 2, 3) > 5.9 * dotErrorBound(100, 1, 1));
  const dims = 777, q = random(dims, 1), d = random(50 * dims, 2);
  const s = dotScores(q, d, 1, 50, dims);
  const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  for (let j = 0; j < 50; j++) {
    const y = d.subarray(j * dims, (j + 1) * dims);
    let exact = 0;
    for (let k = 0; k < dims; k++) exact += q[k] * y[k];
    ok(Math.abs(s[j] - exact) <= dotErrorBound(dims, norm(q), norm(y)));
  }
  const row = new Float32Array([3, 9, 1, 9, 4]);
  assertEquals(nearTop(row, 1, 0), [1, 3]);
  assertEquals(nearTop(row, 2, 0), [1, 3]);
  assertEquals(nearTop(row, 4, 0), [0, 1, 3, 4]);
  assertEquals(nearTop(row, 4, 2), [0, 1, 2, 3, 4]);
  assertEquals(nearTop(new Float32Array([1, 2, 3, 4, 5, 6]), 2, 1.5), [3, 4, 5]);
  assertEquals(nearTop(new Float32Array([6, 5, 4, 3, 2, 1]), 2, 1.5), [0, 1, 2]);
  assertEquals(nearTop(new Float32Array([1, -Infinity]), 1, 0), null);
  // one pass agrees with sorting, on random rows, ties and slacks
  const next = xoshiro128ss(11);
  for (let t = 0; t < 200; t++) {
    const r = Float32Array.from({ length: 1 + (next() % 40) }, () => next() % 16);
    const k = 1 + (next() % r.length), slack = next() % 4;
    const kth = [...r].sort((a, b) => b - a)[k - 1];
    const want = [...r.keys()].filter((i) => r[i] >= kth - slack);
    assertEquals(nearTop(r, k, slack), want, `${r} k=${k} slack=${slack}`);
  }
});

/**
 * A benchmark of near-clones: each task's canonical and three distractors
 * differ by ~1e-6 per component (true scores closer than the GEMM error
 * bound), as does one other task's snippet, some pool entries are exact
 * copies (true ties), and queries mix
 * their task's canonical with noise so canonicals land at every depth.
 */
function nearTieBench(nTasks: number, dims: number) {
  const next = xoshiro128ss(7);
  const rnd = () => next() / 4294967296 - 0.5;
  const bench: Benchmark = { queries: [], corpus: [] };
  const docRows: number[][] = [], queryRows: number[][] = [];
  for (let t = 0; t < nTasks; t++) {
    const c = Array.from({ length: dims }, rnd);
    const add = (id: string, label: string, bug: string | null, v: number[]) => {
      bench.corpus.push({ corpus_id: id, task_id: `t${t}`, label, bug_type: bug, code: "" });
      docRows.push(v);
    };
    add(`t${t}#c`, "correct", null, c);
    const bugs = ["off_by_one", "wrong_operator", "swap_arguments"];
    const distractors = bugs.map((b, i) => {
      const v = t % 5 === 0 && i === 0 ? [...c] : c.map((x) => x + 1e-6 * rnd());
      add(`t${t}#m${i}`, "incorrect", b, v);
      return `t${t}#m${i}`;
    });
    // Another task's code nearly equal to this canonical: it competes with
    // the canonical for its rank at every depth, and no plan reads its score.
    bench.corpus.push({
      corpus_id: `z${t}`,
      task_id: `z${t}`,
      label: "correct",
      bug_type: null,
      code: "",
    });
    docRows.push(c.map((x) => x + 1e-6 * rnd()));
    const mix = (t % 7) / 7;
    queryRows.push(c.map((x) => (1 - mix) * x + mix * rnd()));
    bench.queries.push({
      query_id: `q${t}`,
      task_id: `t${t}`,
      source: "s",
      domain: "d",
      query: "",
      correct_ids: [`t${t}#c`],
      distractor_ids: distractors,
    });
  }
  const q = l2Normalized(Float32Array.from(queryRows.flat()), dims);
  const d = l2Normalized(Float32Array.from(docRows.flat()), dims);
  return { bench, q, d, nq: queryRows.length, nd: docRows.length };
}

/**
 * The worst GEMM the proof allows: each score moved by 0.99 Δ from the
 * kernel's (|g − e| ≤ Δ), up or down by a seeded coin, so near-ties flip.
 */
function adversarialGemm(seed: number) {
  return {
    dots(queries: Float32Array, docs: Float32Array, nq: number, nd: number, dims: number) {
      const e = dotScores(queries, docs, nq, nd, dims);
      let maxDoc = 0;
      for (let j = 0; j < nd; j++) {
        let ss = 0;
        for (let k = j * dims; k < (j + 1) * dims; k++) ss += docs[k] * docs[k];
        maxDoc = Math.max(maxDoc, Math.sqrt(ss));
      }
      const next = xoshiro128ss(seed);
      for (let i = 0; i < nq; i++) {
        let ss = 0;
        for (let k = i * dims; k < (i + 1) * dims; k++) ss += queries[k] * queries[k];
        const delta = 2 * dotErrorBound(dims, Math.sqrt(ss), maxDoc);
        for (let j = i * nd; j < (i + 1) * nd; j++) {
          e[j] = e[j] + (next() & 1 ? 0.99 : -0.99) * delta;
        }
      }
      return Promise.resolve(e);
    },
  };
}

function evaluateAll(bench: Benchmark, scores: Float32Array) {
  const ctx = poolContext(bench.corpus), nd = bench.corpus.length;
  return bench.queries.map((query, i) =>
    evaluateQuery("c", query, scores.subarray(i * nd, (i + 1) * nd), ctx, [1, 3, 5, 10])
  );
}

Deno.test("two-path: adversarial near-ties are re-scored and every table row equals the kernel's", async () => {
  const dims = 64, { bench, q, d, nq, nd } = nearTieBench(60, dims);
  const kernel = dotScores(q, d, nq, nd, dims);
  const want = evaluateAll(bench, kernel);
  const plan = evaluationPlan(bench, 10);
  for (const seed of [1, 2, 3]) {
    const gemm = adversarialGemm(seed);
    const raw = await gemm.dots(q, d, nq, nd, dims);
    // The adversary alone changes the tables (so this test can fail)...
    notDeepStrictEqual(evaluateAll(bench, raw), want);
    // ...and the two-path scores do not.
    const r = await twoPathScores(q, d, nq, nd, dims, gemm, plan);
    assertEquals(evaluateAll(bench, r.scores), want);
    ok(r.rescored >= nq * 11 && r.rescored < nq * nd, `${r.rescored} re-scored`);
  }
  // A plan of the top 10 only: top-10 ids and scores still equal the kernel's.
  const r = await twoPathScores(q, d, nq, nd, dims, adversarialGemm(9), { depth: 10 });
  const ctx = poolContext(bench.corpus);
  for (const [i, w] of want.entries()) {
    const got = evaluateQuery("c", bench.queries[i], r.scores.subarray(i * nd, (i + 1) * nd), ctx, [
      1,
      3,
      5,
      10,
    ]).rankings.filter((x) => x.in_top);
    assertEquals(got, w.rankings.filter((x) => x.in_top));
  }
});

Deno.test("two-path with onnxruntime's GEMM: tables equal the kernel's on near-clones", async () => {
  const gemm = await loadNativeGemm({ threads: 2 });
  for (const dims of [64, 1030]) {
    const { bench, q, d, nq, nd } = nearTieBench(40, dims);
    const kernel = dotScores(q, d, nq, nd, dims);
    const raw = await gemm.dots(q, d, nq, nd, dims);
    let differ = 0;
    for (let i = 0; i < raw.length; i++) if (raw[i] !== kernel[i]) differ++;
    ok(differ > 0 || dims === 64, `GEMM equals the kernel bit for bit at ${dims} dims`);
    const r = await twoPathScores(q, d, nq, nd, dims, gemm, evaluationPlan(bench, 10));
    assertEquals(evaluateAll(bench, r.scores), evaluateAll(bench, kernel));
    // Into a given (stale) buffer: the same tables.
    const out = new Float32Array(nq * nd).fill(NaN);
    const into = await twoPathScores(q, d, nq, nd, dims, gemm, evaluationPlan(bench, 10), { out });
    ok(into.scores === out);
    assertEquals(evaluateAll(bench, out), evaluateAll(bench, kernel));
  }
});

Deno.test("two-path: a GEMM outside its bound is refused, not published", async () => {
  const dims = 64, { bench, q, d, nq, nd } = nearTieBench(10, dims);
  const sound = adversarialGemm(4);
  const broken = {
    async dots(...a: Parameters<typeof sound.dots>) {
      const s = await sound.dots(...a);
      s[3 * nd + 5] += 0.01; // far beyond Δ ≈ 1e-5: as if one block were read at a wrong offset
      return s;
    },
  };
  await rejects(
    twoPathScores(q, d, nq, nd, dims, broken, evaluationPlan(bench, nd)),
    (e: Error) => e.name === "GemmBoundError" && /query 3, document 5 /.test(e.message),
  );
});
