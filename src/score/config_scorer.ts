import { join } from "node:path";
import { existsSync } from "node:fs";
import { embeddingsDir } from "../io/paths.ts";
import type { Benchmark } from "./benchmark.ts";
import { denseRowScorer, type ScorePath, type ScorePathChoice } from "./score_matrix.ts";
import { readEmbeddingVectors } from "./embedding_vectors.ts";
import { evaluationPlan } from "./evaluation_plan.ts";
import { RANKINGS_DEPTH } from "./evaluate_query.ts";

/** Path of a config's embedding file. */
export function embeddingPath(config: string): string {
  return join(embeddingsDir(), `${config}.arrow`);
}

/** A config's scorer over the benchmark, one block of query rows at a time. */
export interface ConfigScorer {
  queryIds: string[];
  docIds: string[];
  kind: "dense" | "sparse";
  similarity: string;
  /** Where the scores come from: the embedding file, or the sparse provider. */
  origin: string;
  /**
   * Scores of queries `q0 .. q1 - 1` against the whole pool, row-major
   * `(q1 - q0) × docIds.length`: rows of the full score matrix, bit for bit
   * wherever evaluate_query.ts reads them.
   */
  rows(q0: number, q1: number): Promise<Float32Array>;
  /** Dense path of the blocks scored so far (`wasm` once any block used it). */
  path(): ScorePath | undefined;
}

/**
 * The scorer of a config over the benchmark: from its embedding file when
 * there is one (dense), else from its sparse provider (bm25, tfidf), which
 * scores query texts against pool code directly. The embed modules are
 * imported only here, so the scoring core stays testable on its own. Scoring
 * block by block keeps one block of scores in memory instead of the
 * n_queries × n_docs matrix (2.7 GB per config at 10× the default benchmark).
 *
 * Dense scores are exact (the fixed-order kernel's) wherever evaluate_query.ts
 * reads them down to rank `depth` (default {@link RANKINGS_DEPTH}); with the
 * two-path scorer other entries are GEMM values (see score_matrix.ts).
 */
export async function configScorer(
  config: string,
  bench: Benchmark,
  options: { threads?: number; depth?: number; path?: ScorePathChoice } = {},
): Promise<ConfigScorer> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(config)) {
    throw new Error(`config name "${config}" must match [A-Za-z0-9][A-Za-z0-9._-]*`);
  }
  const queryIds = bench.queries.map((q) => q.query_id);
  const docIds = bench.corpus.map((d) => d.corpus_id);
  const path = embeddingPath(config);
  if (existsSync(path)) {
    const v = await readEmbeddingVectors(path, queryIds, docIds);
    const dense = denseRowScorer(v.queries, v.docs, v.similarity, {
      threads: options.threads,
      path: options.path,
      plan: evaluationPlan(bench, options.depth ?? RANKINGS_DEPTH),
    });
    let used: ScorePath | undefined;
    return {
      queryIds,
      docIds,
      kind: "dense",
      similarity: v.similarity,
      origin: path,
      async rows(q0, q1) {
        const r = await dense(q0, q1);
        used = used === "wasm" ? "wasm" : r.path;
        return r.scores;
      },
      path: () => used,
    };
  }
  const { invocationFor } = await import("../embed/invocations.ts");
  const { isSparse, providerFor } = await import("../embed/provider_registry.ts");
  const inv = await invocationFor(config);
  if (!isSparse(inv)) {
    throw new Error(
      `${path}: no embedding file for ${config} (run \`execret embed --config ${config}\`)`,
    );
  }
  const provider = await providerFor(inv);
  if (provider.kind !== "sparse") throw new Error(`${config}: provider is not sparse`);
  // One pool array for every block: the providers prepare it once (lastPoolMemo).
  const texts = bench.queries.map((q) => q.query), code = bench.corpus.map((d) => d.code);
  return {
    queryIds,
    docIds,
    kind: "sparse",
    similarity: inv.similarity,
    origin: `${inv.provider} provider`,
    async rows(q0, q1) {
      const scores = await provider.score(texts.slice(q0, q1), code);
      if (scores.length !== (q1 - q0) * docIds.length) {
        throw new Error(
          `${config}: sparse provider returned ${scores.length} scores, expected ${
            q1 - q0
          }×${docIds.length}`,
        );
      }
      return scores;
    },
    path: () => undefined,
  };
}

/**
 * Configs to score when none are named: every embedding file in
 * `out/embeddings/`, plus every sparse config of the invocation table (they
 * need no file and run offline).
 */
export async function availableConfigs(): Promise<string[]> {
  const names = new Set<string>();
  try {
    for await (const e of Deno.readDir(embeddingsDir())) {
      if (e.isFile && e.name.endsWith(".arrow")) names.add(e.name.slice(0, -".arrow".length));
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const { loadInvocations } = await import("../embed/invocations.ts");
  const { isSparse } = await import("../embed/provider_registry.ts");
  for (const inv of await loadInvocations()) if (isSparse(inv)) names.add(inv.name);
  return [...names].sort();
}
