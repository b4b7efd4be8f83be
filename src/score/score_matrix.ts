import type { Similarity } from "../embed/provider.ts";
import { dotScoresParallel } from "./dot_kernel.ts";

/**
 * Scores of every query against every pool document, row-major:
 * `scores[q * docIds.length + d]`, higher is better. The scoring core works on
 * this alone, so dense and sparse retrievers (and tests) meet here.
 */
export interface ScoreMatrix {
  queryIds: string[];
  docIds: string[];
  scores: Float32Array;
}

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
 * const m = await denseScoreMatrix(
 *   { ids: ["q"], dims: 2, data: new Float32Array([1, 0]) },
 *   { ids: ["a", "b"], dims: 2, data: new Float32Array([2, 0, 0, 1]) },
 *   "cosine",
 * ); // m.scores = [1, 0]
 * ```
 */
export async function denseScoreMatrix(
  queries: VectorBlock,
  docs: VectorBlock,
  similarity: Similarity,
  options: { threads?: number } = {},
): Promise<ScoreMatrix> {
  if (queries.dims !== docs.dims) {
    throw new Error(`query vectors have ${queries.dims} dims, documents ${docs.dims}`);
  }
  const dims = queries.dims;
  const q = similarity === "cosine" ? l2Normalized(queries.data, dims) : queries.data;
  const d = similarity === "cosine" ? l2Normalized(docs.data, dims) : docs.data;
  const scores = await dotScoresParallel(q, d, queries.ids.length, docs.ids.length, dims, {
    threads: options.threads,
  });
  return { queryIds: queries.ids, docIds: docs.ids, scores };
}
