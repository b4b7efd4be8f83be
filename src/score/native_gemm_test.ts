import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { loadNativeGemm } from "./native_gemm.ts";
import { gemmTransBModel, varint } from "./_onnx_emit.ts";
import { dotScores } from "./dot_kernel.ts";
import { denseScoreMatrix } from "./score_matrix.ts";
import { dotErrorBound } from "./two_path_scores.ts";
import { xoshiro128ss } from "../common/rng.ts";

function random(n: number, seed: number): Float32Array {
  const next = xoshiro128ss(seed);
  return Float32Array.from({ length: n }, () => next() / 4294967296 - 0.5);
}

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

Deno.test("protobuf varints and the Gemm model bytes", () => {
  assertEquals(varint(0), [0]);
  assertEquals(varint(150), [0x96, 0x01]); // the protobuf documentation's example
  assertEquals(varint(2 ** 35), [0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
  const model = gemmTransBModel();
  assertEquals([...model.subarray(0, 2)], [0x08, 0x08]); // field 1 (ir_version) = 8
  ok(new TextDecoder().decode(model).includes("Gemm"));
});

Deno.test("native GEMM: exact on small integers, within the proven bound on random data", async () => {
  const gemm = await loadNativeGemm({ threads: 2 });
  assertEquals(
    await gemm.dots(new Float32Array([1, 0, 0, 1, 2, 3]), new Float32Array([1, 2, 3, 4]), 3, 2, 2),
    new Float32Array([1, 3, 2, 4, 8, 18]),
  );
  // Blocks of 3 query rows: later blocks start at an offset into the query buffer.
  const blocked = await loadNativeGemm({ threads: 2, blockValues: 120 });
  const q0 = random(17 * 9, 5), d0 = random(40 * 9, 6);
  assertEquals(await blocked.dots(q0, d0, 17, 40, 9), await gemm.dots(q0, d0, 17, 40, 9));
  // A given output buffer receives every block (reused, it holds no stale values).
  const given = new Float32Array(17 * 40).fill(NaN);
  const into = await blocked.dots(q0, d0, 17, 40, 9, given);
  ok(into === given);
  assertEquals(into, await gemm.dots(q0, d0, 17, 40, 9));
  await rejects(gemm.dots(q0, d0, 17, 40, 9, new Float32Array(17 * 39)), /out: expected 17×40/);
  for (const [nq, nd, dims] of [[3, 7, 1], [5, 33, 131], [17, 40, 1030]]) {
    const q = random(nq * dims, nq), d = random(nd * dims, nd);
    const got = await gemm.dots(q, d, nq, nd, dims);
    assertEquals(got.length, nq * nd);
    for (let i = 0; i < nq; i++) {
      const x = q.subarray(i * dims, (i + 1) * dims);
      for (let j = 0; j < nd; j++) {
        const y = d.subarray(j * dims, (j + 1) * dims);
        let exact = 0;
        for (let k = 0; k < dims; k++) exact += x[k] * y[k]; // float64: exact enough here
        const err = Math.abs(got[i * nd + j] - exact);
        ok(err <= dotErrorBound(dims, norm(x), norm(y)), `${nq}×${nd}×${dims} [${i},${j}]`);
      }
    }
  }
});

Deno.test("native GEMM: a loader that fails rejects; auto falls back to the WASM kernel with a note", async () => {
  const load = () => {
    throw new Error("Cannot find module 'onnxruntime-node'\nRequire stack: …");
  };
  await rejects(loadNativeGemm({ load }), /Cannot find module/);
  const q = { ids: ["q0", "q1"], dims: 3, data: random(6, 1) };
  const d = { ids: ["a", "b", "c", "e"], dims: 3, data: random(12, 2) };
  const plan = { depth: 2 };
  const notes: string[] = [];
  const m = await denseScoreMatrix(q, d, "dot", {
    path: "auto",
    plan,
    loadOrt: load,
    note: (s) => notes.push(s),
  });
  assertEquals(m.path, "wasm");
  assertEquals(m.scores, dotScores(q.data, d.data, 2, 4, 3));
  assertEquals(notes, [
    "score: onnxruntime-node unavailable (Cannot find module 'onnxruntime-node'); scoring with the WASM kernel only",
  ]);
  await rejects(
    denseScoreMatrix(q, d, "dot", { path: "two-path", plan, loadOrt: load }),
    /two-path scoring: onnxruntime-node: Cannot find module/,
  );
  // The loader that works is used when asked, and a call without a plan stays on the kernel.
  assertEquals((await denseScoreMatrix(q, d, "dot", { path: "two-path", plan })).path, "two-path");
  assertEquals((await denseScoreMatrix(q, d, "dot", { path: "two-path" })).path, "wasm");
});

Deno.test("native GEMM: without --allow-ffi onnxruntime cannot load and scoring falls back", async () => {
  const script = `
    import { denseScoreMatrix } from ${JSON.stringify(import.meta.resolve("./score_matrix.ts"))};
    import { dotScores } from ${JSON.stringify(import.meta.resolve("./dot_kernel.ts"))};
    const q = { ids: ["q"], dims: 2, data: new Float32Array([0.5, 0.25]) };
    const d = { ids: ["a", "b"], dims: 2, data: new Float32Array([1, 2, 3, 4]) };
    const m = await denseScoreMatrix(q, d, "dot", { plan: { depth: 1 } });
    console.log(JSON.stringify({ path: m.path, same: String(m.scores) === String(dotScores(q.data, d.data, 1, 2, 2)) }));
  `;
  const env = Deno.env.toObject();
  delete env.EXECRET_SCORE_PATH;
  const dir = await Deno.makeTempDir({ prefix: "execret-noffi-" });
  const file = `${dir}/fallback.ts`;
  await Deno.writeTextFile(file, script);
  // `deno eval` would grant every permission: a file run with read/env/sys only.
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--config",
      new URL("../../deno.json", import.meta.url).pathname,
      "--cached-only",
      "--allow-read",
      "--allow-env",
      "--allow-sys",
      file,
    ],
    cwd: new URL("../..", import.meta.url).pathname,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(dir, { recursive: true }));
  const stderr = new TextDecoder().decode(out.stderr);
  ok(out.success, stderr);
  assertEquals(JSON.parse(new TextDecoder().decode(out.stdout)), { path: "wasm", same: true });
  ok(
    /^score: onnxruntime-node unavailable \(.*--allow-ffi.*\); scoring with the WASM kernel only$/m
      .test(stderr),
    stderr,
  );
});
