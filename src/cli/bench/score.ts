import process from "node:process";
import { parseFlags, positiveInt, printJson } from "../command.ts";
import {
  defaultThreads,
  dotScores,
  dotScoresParallel,
  relaxedSimdAvailable,
} from "../../score/dot_kernel.ts";
import { rankQuery } from "../../score/rank_query.ts";
import { loadNativeGemm, type NativeGemm } from "../../score/native_gemm.ts";
import { twoPathScores } from "../../score/two_path_scores.ts";
import { fnv1a32 } from "../../score/tie_break.ts";
import { xoshiro128ss } from "../../common/rng.ts";

/**
 * numpy's float32 matrix product on the same shapes, best of `repeats`, in a
 * child python3. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are removed from its
 * environment (set on this machine, they slow OpenBLAS down); the BLAS it
 * used is reported by threadpoolctl when installed, else by OpenBLAS itself.
 */
const NUMPY_SCRIPT = `
import json, sys, time, glob, os, ctypes
import numpy as np
nq, nd, dims, repeats = (int(a) for a in sys.argv[1:5])
rng = np.random.default_rng(20260510)
q = rng.random((nq, dims), dtype=np.float32) - 0.5
d = rng.random((nd, dims), dtype=np.float32) - 0.5
(q[:64] @ d[:64].T)
(q @ d.T)
best, cpu = float("inf"), None
for _ in range(repeats):
    t, c = time.perf_counter(), time.process_time()
    s = q @ d.T
    t, c = time.perf_counter() - t, time.process_time() - c
    if t < best: best, cpu = t, c
blas = {}
try:
    from threadpoolctl import threadpool_info
    blas = {"source": "threadpoolctl", "info": threadpool_info()}
except ImportError:
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), "..", "numpy.libs", "*openblas*.so*"))
    if libs:
        lib = ctypes.CDLL(libs[0])
        for prefix in ("scipy_openblas_", "openblas_"):
            for suffix in ("64_", ""):
                f = getattr(lib, prefix + "get_corename" + suffix, None)
                n = getattr(lib, prefix + "get_num_threads" + suffix, None)
                if f and n:
                    f.restype = ctypes.c_char_p
                    blas = {"source": "openblas (threadpoolctl not installed)", "corename": f().decode(), "threads": n()}
                    break
            if blas: break
print(json.dumps({"seconds": best, "cpu_seconds": cpu, "numpy": np.__version__, "blas": blas}))
`;

async function numpyTime(nq: number, nd: number, dims: number, repeats: number) {
  const env = Deno.env.toObject();
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const out = await new Deno.Command("python3", {
    args: ["-c", NUMPY_SCRIPT, String(nq), String(nd), String(dims), String(repeats)],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    return { error: new TextDecoder().decode(out.stderr).trim().split("\n").pop() ?? "failed" };
  }
  return JSON.parse(new TextDecoder().decode(out.stdout)) as {
    seconds: number;
    cpu_seconds: number;
    numpy: string;
    blas: Record<string, unknown>;
  };
}

function random(n: number, seed: number): Float32Array {
  const next = xoshiro128ss(seed);
  return Float32Array.from({ length: n }, () => next() / 4294967296 - 0.5);
}

/** Wall and CPU seconds (all threads of the process) of the fastest of `repeats` runs. */
async function best(
  repeats: number,
  fn: () => unknown | Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  let b = { wall: Infinity, cpu: Infinity };
  for (let i = 0; i < repeats; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await fn();
    const wall = (performance.now() - t) / 1000;
    const used = process.cpuUsage(c);
    if (wall < b.wall) b = { wall, cpu: (used.user + used.system) / 1e6 };
  }
  return b;
}

/**
 * Fail unless the two-path scores rank every query's top `depth` exactly as
 * the kernel's do: same ids in the same order, same score bits.
 */
function assertSameRankings(
  kernel: Float32Array,
  twoPath: Float32Array,
  nq: number,
  nd: number,
  depth: number,
): void {
  const ids = Array.from({ length: nd }, (_, i) => `doc${i}`);
  const pool = { ids, hashes: Uint32Array.from(ids, (id) => fnv1a32(id)) };
  for (let i = 0; i < nq; i++) {
    const a = rankQuery(kernel.subarray(i * nd, (i + 1) * nd), pool, i, depth).top;
    const b = rankQuery(twoPath.subarray(i * nd, (i + 1) * nd), pool, i, depth).top;
    const same = a.length === b.length &&
      a.every((d, r) => d === b[r] && Object.is(kernel[i * nd + d], twoPath[i * nd + d]));
    if (!same) {
      throw new Error(
        `bench score: query ${i}: two-path top ${depth} [${b}] differs from the kernel's [${a}]`,
      );
    }
  }
}

/**
 * `execret bench score [--queries 1000] [--docs 5000] [--dims 4096]
 * [--threads N] [--repeats 3]`: the similarity kernel (1 thread, N threads,
 * and N threads with relaxed SIMD), onnxruntime's native GEMM alone, and the
 * two-path scorer (native GEMM, then the top 10 re-scored by the kernel within
 * the proven error bound) against numpy's float32 `q @ d.T` on the same shapes
 * in the same run, plus the ranking pass over the resulting scores. Prints the
 * times and ratios, and fails unless the two-path top-10 rankings (ids and
 * score bits) equal the kernel's for every query.
 */
export async function benchScore(args: string[]): Promise<number> {
  const { values: f } = parseFlags(args, {
    queries: { type: "string" },
    docs: { type: "string" },
    dims: { type: "string" },
    threads: { type: "string" },
    repeats: { type: "string" },
  });
  const nq = positiveInt("queries", f.queries, 1000);
  const nd = positiveInt("docs", f.docs, 5000);
  const dims = positiveInt("dims", f.dims, 4096);
  const threads = positiveInt("threads", f.threads, defaultThreads());
  const repeats = positiveInt("repeats", f.repeats, 3);
  const gflop = (2 * nq * nd * dims) / 1e9;
  const q = random(nq * dims, 1), d = random(nd * dims, 2);
  const kernel1 = await best(repeats, () => dotScores(q, d, nq, nd, dims));
  let scores: Float32Array = new Float32Array(0);
  const kernelN = await best(repeats, async () => {
    scores = await dotScoresParallel(q, d, nq, nd, dims, { threads });
  });
  const relaxed = relaxedSimdAvailable()
    ? await best(repeats, () => dotScoresParallel(q, d, nq, nd, dims, { threads, relaxed: true }))
    : null;
  let gemm: NativeGemm | null = null, gemmError = "", loadSeconds = 0;
  try {
    const t = performance.now();
    gemm = await loadNativeGemm({ threads: navigator.hardwareConcurrency || 1 });
    await gemm.dots(q.subarray(0, 64 * dims), d.subarray(0, 64 * dims), 64, 64, dims);
    loadSeconds = (performance.now() - t) / 1000;
    // One untimed call of the full shape, as numpy gets below: onnxruntime's
    // first calls at a new shape run ~2× slower (arena and thread-pool warm-up).
    await gemm.dots(q, d, nq, nd, dims);
  } catch (e) {
    gemmError = (e as Error).message.split("\n")[0];
  }
  let native = null, twoPath = null, rescored = 0;
  if (gemm) {
    const g = gemm;
    // One output buffer for every repeat, as numpy's allocator reuses the
    // freed result of the previous repeat: a fresh 20 MB array costs ~60 ms
    // of first-touch page faults here, which numpy's best-of-N never pays.
    const out = new Float32Array(nq * nd);
    native = await best(repeats, () => g.dots(q, d, nq, nd, dims, out));
    let hybrid: Float32Array = new Float32Array(0);
    twoPath = await best(repeats, async () => {
      const r = await twoPathScores(q, d, nq, nd, dims, g, { depth: 10 }, { out });
      hybrid = r.scores;
      rescored = r.rescored;
    });
    assertSameRankings(scores, hybrid, nq, nd, 10);
  }
  const ids = Array.from({ length: nd }, (_, i) => `doc${i}`);
  const pool = { ids, hashes: Uint32Array.from(ids, (id) => fnv1a32(id)) };
  const rank = await best(1, () => {
    for (let i = 0; i < nq; i++) rankQuery(scores.subarray(i * nd, (i + 1) * nd), pool, i, 10);
  });
  const np = await numpyTime(nq, nd, dims, repeats);
  const numpy = "seconds" in np ? { wall: np.seconds, cpu: np.cpu_seconds } : null;
  const timing = (t: { wall: number; cpu: number }) => ({
    wall_s: round(t.wall),
    cpu_s: round(t.cpu),
    gflops: round(gflop / t.wall),
  });
  const result = {
    shape: { queries: nq, docs: nd, dims, gflop: round(gflop) },
    kernel_1_thread: timing(kernel1),
    threads,
    kernel_threads: timing(kernelN),
    kernel_relaxed_threads: relaxed === null ? null : timing(relaxed),
    native_gemm: native === null ? null : timing(native),
    native_gemm_info: gemm === null
      ? { error: gemmError }
      : { onnxruntime: gemm.version, threads: gemm.threads, load_s: round(loadSeconds) },
    two_path: twoPath === null ? null : timing(twoPath),
    two_path_rescored_pairs: twoPath === null ? null : rescored,
    two_path_rankings_identical: twoPath === null ? null : true,
    ranking_top10: timing(rank),
    numpy: numpy === null ? null : timing(numpy),
    numpy_info: np,
    ratio_kernel_to_numpy: numpy === null
      ? null
      : round(Math.min(kernel1.wall, kernelN.wall) / numpy.wall),
    ratio_kernel_to_numpy_cpu: numpy === null ? null : round(kernel1.cpu / numpy.cpu),
    ratio_relaxed_to_numpy: numpy === null || relaxed === null
      ? null
      : round(relaxed.wall / numpy.wall),
    ratio_native_gemm_to_numpy: numpy === null || native === null
      ? null
      : round(native.wall / numpy.wall),
    ratio_two_path_to_numpy: numpy === null || twoPath === null
      ? null
      : round(twoPath.wall / numpy.wall),
    ratio_two_path_to_numpy_cpu: numpy === null || twoPath === null
      ? null
      : round(twoPath.cpu / numpy.cpu),
    load_average: Deno.loadavg(),
  };
  if (f.json) printJson(result);
  else {
    const line = (label: string, t: { wall: number; cpu: number }) =>
      console.log(
        `  ${label.padEnd(36)} ${t.wall.toFixed(3)} s wall, ${t.cpu.toFixed(3)} s CPU` +
          ` (${(gflop / t.wall).toFixed(1)} GFLOP/s)`,
      );
    console.log(`bench score: ${nq} queries × ${nd} docs × ${dims} dims (${round(gflop)} GFLOP)`);
    line("wasm simd kernel, 1 thread", kernel1);
    line(`wasm simd kernel, ${threads} threads`, kernelN);
    if (relaxed !== null) line(`relaxed-simd fma, ${threads} threads`, relaxed);
    if (native !== null && twoPath !== null && gemm !== null) {
      line(`onnxruntime ${gemm.version} Gemm, ${gemm.threads} threads`, native);
      line("two-path (Gemm + exact re-score)", twoPath);
      console.log(
        `  two-path re-scored ${rescored} of ${nq * nd} pairs with the kernel;` +
          ` top-10 rankings identical to the kernel's for all ${nq} queries`,
      );
    } else console.log(`  two-path: unavailable (onnxruntime-node: ${gemmError})`);
    console.log(`  ranking (top 10 + ties) of ${nq} queries: ${rank.wall.toFixed(3)} s`);
    if (numpy !== null && "numpy" in np) {
      line(`numpy ${np.numpy} float32 q @ d.T`, numpy);
      console.log(`  BLAS: ${JSON.stringify(np.blas)}`);
      console.log(
        `  ratio kernel/numpy (wall, faster of 1 and ${threads} threads): ${result.ratio_kernel_to_numpy}×` +
          (relaxed === null ? "" : `; relaxed: ${result.ratio_relaxed_to_numpy}×`),
      );
      console.log(
        `  ratio kernel/numpy (CPU seconds, 1 kernel thread): ${result.ratio_kernel_to_numpy_cpu}×` +
          " (steadier than wall time on a busy machine)",
      );
      if (twoPath !== null) {
        console.log(
          `  ratio two-path/numpy (wall): ${result.ratio_two_path_to_numpy}×` +
            ` (Gemm alone ${result.ratio_native_gemm_to_numpy}×);` +
            ` CPU seconds: ${result.ratio_two_path_to_numpy_cpu}×`,
        );
      }
    } else console.log(`  numpy: unavailable (${"error" in np ? np.error : "?"})`);
    console.log(
      `  load average ${result.load_average.map((x) => x.toFixed(2)).join(" ")}` +
        " (shared machine: wall times are noisy)",
    );
  }
  return 0;
}

const round = (x: number) => Number(x.toFixed(4));
