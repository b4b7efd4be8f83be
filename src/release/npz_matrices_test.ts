import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import type { NdArray } from "./npy.ts";
import { readNpz } from "./npz.ts";
import {
  checkEmbeddingSummary,
  mapReleaseMatrices,
  matrixCounts,
  roleFromName,
} from "./npz_matrices.ts";
import { numpyAvailable, runPython } from "../../test/support/npz_fixture.ts";

const HAS_NUMPY = await numpyAvailable();

function matrix(name: string, rows: number[][], dtype = "<f4"): NdArray {
  const flat = rows.flat();
  return {
    name,
    dtype,
    shape: [rows.length, rows[0]?.length ?? 0],
    data: dtype.endsWith("8") ? new Float64Array(flat) : new Float32Array(flat),
  };
}

function ids(name: string, values: string[]): NdArray {
  return { name, dtype: "<U8", shape: [values.length], data: values };
}

function arraysOf(...list: NdArray[]): Map<string, NdArray> {
  return new Map(list.map((a) => [a.name, a]));
}

function expectOneLine(fn: () => unknown, pattern: RegExp) {
  throws(fn, (e: Error) => {
    ok(!e.message.includes("\n"), `not one line: ${e.message}`);
    ok(pattern.test(e.message), `${JSON.stringify(e.message)} !~ ${pattern}`);
    return true;
  });
}

const Q = ["q1", "q2"];
const C = ["c1", "c2", "c3"];
const layout = { nQueries: 2, nCorpus: 3, queryIds: Q, corpusIds: C, file: "m.npz" };

Deno.test("mapReleaseMatrices maps by shape and keeps file order without ids", () => {
  const m = mapReleaseMatrices(
    arraysOf(
      matrix("arr_0", [[1, 2], [3, 4]]),
      matrix("arr_1", [[5, 6], [7, 8], [9, 0.1]], "<f8"),
      { name: "dims", dtype: "<i8", shape: [], data: new BigInt64Array([2n]) },
    ),
    layout,
  );
  assertEquals(m.dims, 2);
  assertEquals(Array.from(m.queries), [1, 2, 3, 4]);
  // float64 is rounded to float32
  assertEquals(Array.from(m.corpus), [5, 6, 7, 8, 9, Math.fround(0.1)]);
  assertEquals(m.arrayNames, { queries: "arr_0", corpus: "arr_1" });
  assertEquals([m.queryOrder, m.corpusOrder], [Q, C]);
});

Deno.test("mapReleaseMatrices reorders rows by the id arrays", () => {
  const m = mapReleaseMatrices(
    arraysOf(
      matrix("a", [[1, 1], [2, 2]]),
      ids("qid", ["q2", "q1"]),
      matrix("b", [[3, 3], [1, 1], [2, 2]]),
      ids("cid", ["c3", "c1", "c2"]),
    ),
    layout,
  );
  assertEquals(Array.from(m.queries), [2, 2, 1, 1]);
  assertEquals(Array.from(m.corpus), [1, 1, 2, 2, 3, 3]);
  assertEquals(m.arrayNames, { queries: "a", corpus: "b", queryIds: "qid", corpusIds: "cid" });
});

Deno.test("mapReleaseMatrices fails on unknown, repeated and missing ids", () => {
  const base = [matrix("a", [[1, 1], [2, 2]]), matrix("b", [[3, 3], [1, 1], [2, 2]])];
  expectOneLine(
    () => mapReleaseMatrices(arraysOf(...base, ids("cid", ["c3", "c9", "c2"])), layout),
    /^m\.npz: cid\[1\] = c9 is not a benchmark id$/,
  );
  expectOneLine(
    () => mapReleaseMatrices(arraysOf(...base, ids("cid", ["c3", "c3", "c2"])), layout),
    /^m\.npz: cid repeats id c3$/,
  );
  expectOneLine(
    () => mapReleaseMatrices(arraysOf(...base, ids("qid", ["q2", "q2"])), layout),
    /^m\.npz: qid repeats id q2$/,
  );
});

Deno.test("mapReleaseMatrices: equal counts need names, else one line listing every array", () => {
  const square = { ...layout, nCorpus: 2, corpusIds: ["c1", "c2"] };
  expectOneLine(
    () => mapReleaseMatrices(arraysOf(matrix("x", [[1], [2]]), matrix("y", [[3], [4]])), square),
    /^m\.npz: cannot tell which float matrix is the queries one \(x, y\); arrays: x <f4 \(2, 1\); y <f4 \(2, 1\)$/,
  );
  const m = mapReleaseMatrices(
    arraysOf(matrix("doc_emb", [[3], [4]]), matrix("query_emb", [[1], [2]])),
    square,
  );
  assertEquals(m.arrayNames, { queries: "query_emb", corpus: "doc_emb" });
  assertEquals(Array.from(m.queries), [1, 2]);
  // two corpus-shaped matrices and names that do not say which
  expectOneLine(
    () =>
      mapReleaseMatrices(
        arraysOf(
          matrix("q", [[1], [2]]),
          matrix("e1", [[1], [2], [3]]),
          matrix("e2", [[1], [2], [3]]),
        ),
        layout,
      ),
    /^m\.npz: cannot tell which float matrix is the corpus one \(e1, e2\); arrays: q <f4 \(2, 1\); e1 <f4 \(3, 1\); e2 <f4 \(3, 1\)$/,
  );
  expectOneLine(
    () => mapReleaseMatrices(arraysOf(matrix("q", [[1], [2]])), layout),
    /^m\.npz: no float matrix for the corpus .*; arrays: q <f4 \(2, 1\)$/,
  );
});

Deno.test("mapReleaseMatrices rejects differing dims and non-finite values", () => {
  expectOneLine(
    () =>
      mapReleaseMatrices(
        arraysOf(matrix("a", [[1], [2]]), matrix("b", [[1, 2], [3, 4], [5, 6]])),
        layout,
      ),
    /^m\.npz: a has 1 dims but b has 2/,
  );
  expectOneLine(
    () =>
      mapReleaseMatrices(
        arraysOf(matrix("a", [[1], [2]]), matrix("b", [[1], [NaN], [3]])),
        layout,
      ),
    /^m\.npz: b row 1 \(id c2\) has a non-finite value$/,
  );
  expectOneLine(
    () =>
      mapReleaseMatrices(
        arraysOf(matrix("a", [[1], [1e300]], "<f8"), matrix("b", [[1], [2], [3]])),
        layout,
      ),
    /^m\.npz: a row 1 \(id q2\) has a non-finite value after rounding to float32$/,
  );
});

Deno.test("roleFromName reads query and corpus words only", () => {
  assertEquals(
    [
      "q",
      "query_embeddings",
      "queryVecs",
      "Q_emb",
      "corpus",
      "doc_vectors",
      "c",
      "emb",
      "qc",
      "q_c",
    ]
      .map(roleFromName),
    ["queries", "queries", "queries", "queries", "corpus", "corpus", "corpus", null, null, null],
  );
});

Deno.test("checkEmbeddingSummary accepts the true counts and names the array on a mismatch", () => {
  const arrays = arraysOf(matrix("a", [[1, 0], [0, 0]]), matrix("b", [[1, 1], [0, 0], [2, NaN]]));
  assertEquals(matrixCounts(arrays.get("b")!), {
    shape: [3, 2],
    finite: 5,
    nonFinite: 1,
    zeroNorm: 1,
  });
  const roles = { queries: "a", corpus: "b" };
  checkEmbeddingSummary(
    { queries: { shape: [2, 2], finite: 4, zero_norm: 1 }, corpus: { shape: [3, 2] } },
    arrays,
    "m.npz",
    roles,
  );
  checkEmbeddingSummary({ query_shape: [2, 2], corpus_n_zero_norm: 1 }, arrays, "m.npz", roles);
  checkEmbeddingSummary({ b: { non_finite: 1, all_finite: false } }, arrays, "m.npz");
  expectOneLine(
    () => checkEmbeddingSummary({ corpus: { shape: [4, 2] } }, arrays, "m.npz", roles),
    /^m\.npz: array b has shape \[3,2\], embedding_summary says \[4,2\]$/,
  );
  expectOneLine(
    () => checkEmbeddingSummary({ queries: { zero_norm: 0 } }, arrays, "m.npz", roles),
    /^m\.npz: array a has zero_norm 1, embedding_summary says 0$/,
  );
  expectOneLine(
    () => checkEmbeddingSummary({ shapes: "?" }, arrays, "m.npz", roles),
    /^m\.npz: embedding_summary entry states no shape or count for any array/,
  );
});

Deno.test({
  name: "mapReleaseMatrices over a real np.savez_compressed archive with shuffled ids",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await runPython(
        `
import json, numpy as np
rng = np.random.default_rng(3)
qids = [f"q{i}" for i in range(4)]; cids = [f"c{i}" for i in range(6)]
Q = rng.standard_normal((4, 5)); D = rng.standard_normal((6, 5)).astype("<f2")
pq = rng.permutation(4); pc = rng.permutation(6)
np.savez_compressed("m.npz", query_embeddings=Q[pq], corpus_embeddings=D[pc],
                    query_ids=np.array(qids)[pq], corpus_ids=np.array(cids, dtype="S")[pc])
json.dump({"q": Q.astype("<f4").ravel().tolist(), "c": D.astype("<f4").ravel().tolist(),
           "qids": qids, "cids": cids}, open("want.json", "w"))
`,
        dir,
      );
      const want = JSON.parse(await Deno.readTextFile(join(dir, "want.json")));
      const path = join(dir, "m.npz");
      const m = mapReleaseMatrices(await readNpz(await Deno.readFile(path), path), {
        nQueries: 4,
        nCorpus: 6,
        queryIds: want.qids,
        corpusIds: want.cids,
        file: path,
      });
      assertEquals(Array.from(m.queries), want.q);
      assertEquals(Array.from(m.corpus), want.c);
      assertEquals(m.arrayNames, {
        queries: "query_embeddings",
        corpus: "corpus_embeddings",
        queryIds: "query_ids",
        corpusIds: "corpus_ids",
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
