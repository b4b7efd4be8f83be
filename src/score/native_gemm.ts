import { createRequire } from "node:module";
import { gemmTransBModel } from "./_onnx_emit.ts";

/**
 * Bulk dot products through a native GEMM: onnxruntime's CPU `Gemm` (MLAS,
 * multithreaded, FMA/AVX-512 where the CPU has them). The kit installs
 * onnxruntime-node anyway as a dependency of @huggingface/transformers, so it
 * is reached from there (the way transformers.js itself imports it) and adds
 * no dependency. Its results depend on MLAS's blocking and the CPU, so they
 * are never published as they are: two_path_scores.ts re-scores with the
 * fixed-order kernel every score that can affect a table.
 */

/** Minimal view of the onnxruntime-node API used here. */
interface Ort {
  env: { versions?: Record<string, string> };
  Tensor: new (type: "float32", data: Float32Array, dims: number[]) => OrtTensor;
  InferenceSession: {
    create(model: Uint8Array, options: Record<string, unknown>): Promise<OrtSession>;
  };
}
interface OrtTensor {
  data: Float32Array;
  dispose?(): void;
}
interface OrtSession {
  run(
    feeds: Record<string, OrtTensor>,
    fetches?: Record<string, OrtTensor>,
  ): Promise<Record<string, OrtTensor>>;
  release?(): Promise<void>;
}

/** A loaded native GEMM. */
export interface NativeGemm {
  /** onnxruntime-node's version. */
  version: string;
  /** Intra-op threads of the session. */
  threads: number;
  /**
   * Row-major `out[q * nd + d] ≈ dot(queries[q], docs[d])` (float32, in
   * MLAS's summation order), written into `out` when given (nq × nd values):
   * a buffer reused across calls spares the first touch of every page of a
   * fresh one, which cost ~60 ms per 20 MB on the 2-core VM here.
   */
  dots(
    queries: Float32Array,
    docs: Float32Array,
    nq: number,
    nd: number,
    dims: number,
    out?: Float32Array,
  ): Promise<Float32Array>;
}

/** How to obtain onnxruntime-node; tests pass a loader that fails. */
export type OrtLoader = () => unknown;

/** onnxruntime-node as @huggingface/transformers resolves it (a native addon: needs --allow-ffi). */
export const defaultOrtLoader: OrtLoader = () =>
  createRequire(import.meta.resolve("@huggingface/transformers"))("onnxruntime-node");

/** Output values per GEMM call: query blocks keep onnxruntime's output buffer ≤ 64 MiB. */
const BLOCK_VALUES = 16 * 1024 * 1024;
/**
 * Query rows per GEMM call at most. The binding copies every output into a
 * fresh ArrayBuffer; at 1,000 × 5,000 the steady state was the same for 128 to
 * 1,000 rows per call (`execret bench score`), and smaller calls keep that
 * copy (and its page faults) small.
 */
const BLOCK_ROWS = 512;

const sessions = new Map<string, Promise<NativeGemm>>();

/**
 * Load onnxruntime-node and make a session of the one-node Gemm model of
 * _onnx_emit.ts with `threads` intra-op threads (default: every core). One
 * session per thread count is kept for the process. Rejects when the addon
 * cannot load (missing binary, no --allow-ffi, unsupported platform).
 * `blockValues` caps the output values of one onnxruntime call (queries are
 * run in blocks of rows; default 16 Mi values).
 */
export function loadNativeGemm(
  options: { threads?: number; load?: OrtLoader; blockValues?: number } = {},
): Promise<NativeGemm> {
  const threads = options.threads ?? Math.max(1, navigator.hardwareConcurrency || 1);
  const block = options.blockValues ?? BLOCK_VALUES;
  const key = `${threads}/${block}`;
  if (options.load) return makeGemm(options.load, threads, block);
  let s = sessions.get(key);
  if (!s) {
    s = makeGemm(defaultOrtLoader, threads, block);
    sessions.set(key, s);
    s.catch(() => sessions.delete(key));
  }
  return s;
}

async function makeGemm(load: OrtLoader, threads: number, block: number): Promise<NativeGemm> {
  const ort = load() as Ort;
  if (typeof ort?.InferenceSession?.create !== "function" || typeof ort.Tensor !== "function") {
    throw new Error("onnxruntime-node: module has no InferenceSession/Tensor");
  }
  const session = await ort.InferenceSession.create(gemmTransBModel(), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
    executionProviders: ["cpu"],
  });
  return {
    version: ort.env.versions?.node ?? ort.env.versions?.common ?? "?",
    threads,
    async dots(queries, docs, nq, nd, dims, given) {
      if (queries.length !== nq * dims) throw new Error(`queries: expected ${nq}×${dims} values`);
      if (docs.length !== nd * dims) throw new Error(`docs: expected ${nd}×${dims} values`);
      if (given && given.length !== nq * nd) throw new Error(`out: expected ${nq}×${nd} values`);
      const out = given ?? new Float32Array(nq * nd);
      if (nq === 0 || nd === 0) return out;
      if (dims === 0) return out.fill(0);
      const b = new ort.Tensor("float32", docs, [nd, dims]);
      const rows = Math.max(1, Math.min(BLOCK_ROWS, Math.floor(block / nd)));
      for (let q0 = 0; q0 < nq; q0 += rows) {
        const q1 = Math.min(nq, q0 + rows);
        const a = new ort.Tensor("float32", queries.subarray(q0 * dims, q1 * dims), [
          q1 - q0,
          dims,
        ]);
        // A preallocated output: onnxruntime writes the block into `out`
        // itself (one copy fewer than copying its result over).
        const y = new ort.Tensor("float32", out.subarray(q0 * nd, q1 * nd), [q1 - q0, nd]);
        const got = (await session.run({ A: a, B: b }, { Y: y })).Y;
        if (got.data.length !== (q1 - q0) * nd) {
          throw new Error(
            `onnxruntime Gemm returned ${got.data.length} values, expected ${(q1 - q0) * nd}`,
          );
        }
        got.dispose?.();
      }
      return out;
    },
  };
}
