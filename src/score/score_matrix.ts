import type { Similarity } from "../common/similarity.ts";
import { dotScoresParallel } from "./dot_kernel.ts";
import { loadNativeGemm } from "./native_gemm.ts";
import { GemmBoundError, type RescorePlan, twoPathScores } from "./two_path_scores.ts";

/**
 * Scores of every query against every pool document, row-major:
 * `scores[q * docIds.length + d]`, higher is better. The scoring core works on
 * this alone, so dense and sparse retrievers (and tests) meet here.
 */
export interface ScoreMatrix {
  queryIds: string[];
  docIds: string[];
  scores: Float32Array;
  /**
   * How dense scores were computed: `wasm` (every score by the fixed-order
   * kernel) or `two-path` (native GEMM, then every score the rescore plan
   * reads by the fixed-order kernel; the other entries are GEMM values on the
   * proven-correct side of those, see two_path_scores.ts).
   */
  path?: ScorePath;
}

/** Dense scoring path: see {@link ScoreMatrix.path}. */
export type ScorePath = "wasm" | "two-path";

/**
 * Which dense path to use: `auto` (two-path when onnxruntime loads and a
 * rescore plan is given, else the WASM kernel with a one-line note), `wasm`,
 * or `two-path` (fail when onnxruntime cannot load). Set by the option, else
 * by `EXECRET_SCORE_PATH`, else `auto`.
 */
export type ScorePathChoice = "auto" | ScorePath;

/** The path choice of `EXECRET_SCORE_PATH` (default auto); a bad value is an error naming it. */
export function scorePathFromEnv(): ScorePathChoice {
  const v = Deno.env.get("EXECRET_SCORE_PATH") ?? "auto";
  if (v === "" || v === "auto") return "auto";
  if (v === "wasm" || v === "two-path") return v;
  throw new Error(`EXECRET_SCORE_PATH="${v}": expected auto, wasm or two-path`);
}

/** Options of {@link denseScoreMatrix}. */
export interface DenseScoreOptions {
  /** Kernel threads, and the native GEMM's intra-op threads (default: cores). */
  threads?: number;
  /** Dense path (default: {@link scorePathFromEnv}). */
  path?: ScorePathChoice;
  /**
   * What the caller reads from each score row. Two-path scoring needs it:
   * without a plan every score comes from the WASM kernel, whatever the path.
   */
  plan?: RescorePlan;
  /** Where the fallback note goes (default: stderr, once per process). */
  note?: (message: string) => void;
  /** Loads onnxruntime-node (tests pass one that fails). */
  loadOrt?: () => unknown;
}

let noted = false;
const noteOnce = (message: string) => {
  if (noted) return;
  noted = true;
  console.error(message);
};

/** Vectors of one role, row-major `count × dims`. */
export interface VectorBlock {
  ids: string[];
  dims: number;
  data: Float32Array;
}

/**
 * Unit-length copies of row-major vectors (computed in float64, stored as
 * float32), for cosine similarity. A zero vector stays zero (its cosine is
 * taken as 0 against everything).
 */
export function l2Normalized(data: Float32Array, dims: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let r = 0; r * dims < data.length; r++) {
    let ss = 0;
    for (let k = r * dims; k < (r + 1) * dims; k++) ss += data[k] * data[k];
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let k = r * dims; k < (r + 1) * dims; k++) out[k] = data[k] * inv;
  }
  return out;
}

/**
 * Dense score matrix: cosine (vectors normalised here, whatever the file
 * says, so cosine never depends on the provider's normalisation) or raw dot.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const m = await denseScoreMatrix(
 *   { ids: ["q"], dims: 2, data: new Float32Array([1, 0]) },
 *   { ids: ["a", "b"], dims: 2, data: new Float32Array([2, 0, 0, 1]) },
 *   "cosine",
 * );
 * deepStrictEqual(Array.from(m.scores), [1, 0]);
 * ```
 */
export async function denseScoreMatrix(
  queries: VectorBlock,
  docs: VectorBlock,
  similarity: Similarity,
  options: DenseScoreOptions = {},
): Promise<ScoreMatrix> {
  const rows = denseRowScorer(queries, docs, similarity, options);
  const r = await rows(0, queries.ids.length);
  return { queryIds: queries.ids, docIds: docs.ids, scores: r.scores, path: r.path };
}

/** Scores of query rows `q0 .. q1 - 1` against every document, and the path used. */
export type DenseRows = (
  q0: number,
  q1: number,
) => Promise<{ scores: Float32Array; path: ScorePath }>;

/**
 * {@link denseScoreMatrix} a block of query rows at a time: vectors are
 * normalised once, then each call scores rows `q0 .. q1 - 1` against the
 * whole pool (row-major `(q1 - q0) × nd`), so only one block of scores need be
 * alive. The bits a table reads do not depend on the blocks: the WASM kernel
 * sums each pair in a fixed order wherever it sits, and the two-path scorer
 * re-scores every entry the plan reads (its query indices are shifted by
 * `q0`) with that kernel. Once the GEMM falls back to the kernel in auto mode,
 * later blocks use the kernel too.
 */
export function denseRowScorer(
  queries: VectorBlock,
  docs: VectorBlock,
  similarity: Similarity,
  options: DenseScoreOptions = {},
): DenseRows {
  if (queries.dims !== docs.dims) {
    throw new Error(`query vectors have ${queries.dims} dims, documents ${docs.dims}`);
  }
  const dims = queries.dims;
  const q = similarity === "cosine" ? l2Normalized(queries.data, dims) : queries.data;
  const d = similarity === "cosine" ? l2Normalized(docs.data, dims) : docs.data;
  const nq = queries.ids.length, nd = docs.ids.length;
  const choice = options.path ?? scorePathFromEnv();
  const plan = options.plan;
  let wasmOnly = choice === "wasm" || !plan;
  return async (q0, q1) => {
    if (!(Number.isInteger(q0) && Number.isInteger(q1) && 0 <= q0 && q0 <= q1 && q1 <= nq)) {
      throw new Error(`query rows ${q0}..${q1} outside 0..${nq}`);
    }
    const block = q.subarray(q0 * dims, q1 * dims), n = q1 - q0;
    if (!wasmOnly && plan) {
      let gemm;
      try {
        gemm = await loadNativeGemm({ threads: options.threads, load: options.loadOrt });
      } catch (e) {
        const why = (e as Error).message.split("\n")[0];
        if (choice === "two-path") throw new Error(`two-path scoring: onnxruntime-node: ${why}`);
        (options.note ?? noteOnce)(
          `score: onnxruntime-node unavailable (${why}); scoring with the WASM kernel only`,
        );
        wasmOnly = true;
      }
      if (gemm) {
        const shifted: RescorePlan = {
          depth: plan.depth,
          ranked: plan.ranked && ((i) => plan.ranked!(q0 + i)),
          read: plan.read && ((i) => plan.read!(q0 + i)),
        };
        try {
          const r = await twoPathScores(block, d, n, nd, dims, gemm, shifted);
          return { scores: r.scores, path: "two-path" };
        } catch (e) {
          if (!(e instanceof GemmBoundError) || choice === "two-path") throw e;
          (options.note ?? noteOnce)(`score: ${e.message}; scoring with the WASM kernel only`);
          wasmOnly = true;
        }
      }
    }
    const scores = await dotScoresParallel(block, d, n, nd, dims, { threads: options.threads });
    return { scores, path: "wasm" };
  };
}
