import { writeTable } from "../io/arrow_table.ts";
import { progress } from "../io/progress.ts";
import { type RankingRow, RANKINGS } from "../tables/schema.ts";
import { appendPerQuery, perQueryColumns, writePerQuery } from "./per_query_columns.ts";
import { readBenchmark } from "./benchmark.ts";
import { evaluateQuery, poolContext, RANKINGS_DEPTH } from "./evaluate_query.ts";
import { availableConfigs, configScorer } from "./config_scorer.ts";
import type { ScorePath, ScorePathChoice } from "./score_matrix.ts";
import { TIE_SEED } from "./tie_break.ts";

/** The cutoffs of the paper. */
export const DEFAULT_KS = [1, 3, 5, 10];

/** Options of {@link runScoreStage}. */
export interface ScoreStageOptions {
  /** Configs to score; empty: every embedding file plus the sparse configs. */
  configs: string[];
  quiet?: boolean;
  /** Cutoffs of the per-query metrics (default 1, 3, 5, 10). */
  ks?: number[];
  /** Kernel threads (default: cores, at most 4). */
  threads?: number;
  /**
   * Dense scoring path (default: `EXECRET_SCORE_PATH`, else auto: the native
   * GEMM plus exact re-scoring when onnxruntime loads, else the WASM kernel).
   * The tables are byte-identical either way.
   */
  path?: ScorePathChoice;
  /**
   * Queries scored per block (default {@link blockRowsFor} of the pool size).
   * The tables do not depend on it; tests set it to check that.
   */
  blockRows?: number;
}

/** Score values per block of queries: 32 Mi float32, 128 MiB. */
export const SCORE_BLOCK_VALUES = 32 * 1024 * 1024;

/**
 * Queries per score block for a pool of `nd` documents: as many as fit in
 * {@link SCORE_BLOCK_VALUES}, at least one. At the default benchmark every
 * query fits in one block; at 10× (55,095 snippets) a block is 609 queries,
 * instead of one 2.7 GB matrix per config.
 */
export function blockRowsFor(nd: number): number {
  return Math.max(1, Math.floor(SCORE_BLOCK_VALUES / Math.max(1, nd)));
}

/** What {@link runScoreStage} did, per config. */
export interface ScoreStageResult {
  configs: {
    config: string;
    kind: "dense" | "sparse";
    similarity: string;
    queries: number;
    docs: number;
    /** Seconds to get the score matrix (kernel or sparse provider). */
    scoreSeconds: number;
    /** Seconds to rank and compute the per-query metrics. */
    rankSeconds: number;
    /** Dense path used (absent for sparse configs). */
    path?: ScorePath;
  }[];
  rankings: string;
  perQuery: string;
}

/**
 * The score stage: for each config, score every query against the whole
 * pool, rank it (score desc, then the seeded tie-break of tie_break.ts), and
 * write `rankings` (top 10 + the canonical's own row) and `per_query` (every
 * per-query metric, long form, with source and domain). per_query is computed
 * here, not in the stats stage, because margins, tie-aware exec@1 and the
 * per-bug-type diagnostics need the full score vector, which rankings does not
 * keep. Both tables hold exactly the configs of this call, sorted by name.
 */
export async function runScoreStage(options: ScoreStageOptions): Promise<ScoreStageResult> {
  const ks = options.ks ?? DEFAULT_KS;
  const configs = [...new Set(options.configs.length ? options.configs : await availableConfigs())]
    .sort();
  if (configs.length === 0) {
    throw new Error("no config to score: no embedding file and no sparse config");
  }
  const bench = await readBenchmark();
  const ctx = poolContext(bench.corpus);
  const nd = bench.corpus.length;
  const rankings: RankingRow[] = [];
  const perQuery = perQueryColumns();
  const result: ScoreStageResult = { configs: [], rankings: "", perQuery: "" };
  const similarities: Record<string, string> = {};
  for (const config of configs) {
    const t0 = performance.now();
    // Declared in the loop: the previous config's scorer (index, vectors) is
    // garbage before this one is built.
    const scorer = await configScorer(config, bench, {
      threads: options.threads,
      depth: Math.max(RANKINGS_DEPTH, ...ks),
      path: options.path,
    });
    let scoreMs = performance.now() - t0, rankMs = 0;
    const bar = progress(`score ${config}`, bench.queries.length, { quiet: options.quiet });
    const step = options.blockRows ?? blockRowsFor(nd);
    if (!(Number.isInteger(step) && step > 0)) {
      throw new Error(`score: blockRows must be a positive integer, got ${step}`);
    }
    for (let q0 = 0; q0 < bench.queries.length; q0 += step) {
      const q1 = Math.min(bench.queries.length, q0 + step);
      const s0 = performance.now();
      const block = await scorer.rows(q0, q1);
      const s1 = performance.now();
      scoreMs += s1 - s0;
      for (let qi = q0; qi < q1; qi++) {
        const query = bench.queries[qi];
        const row = block.subarray((qi - q0) * nd, (qi - q0 + 1) * nd);
        let out;
        try {
          out = evaluateQuery(config, query, row, ctx, ks);
        } catch (e) {
          throw new Error(`${config}: query ${query.query_id}: ${(e as Error).message}`);
        }
        for (const r of out.rankings) rankings.push(r);
        appendPerQuery(perQuery, out.perQuery);
        bar.tick();
      }
      rankMs += performance.now() - s1;
    }
    const path = scorer.path();
    const m = { kind: scorer.kind, similarity: scorer.similarity, path };
    bar.done(`${m.kind}, ${m.similarity}`);
    similarities[config] = m.similarity;
    result.configs.push({
      config,
      kind: m.kind,
      similarity: m.similarity,
      queries: bench.queries.length,
      docs: nd,
      scoreSeconds: scoreMs / 1000,
      rankSeconds: rankMs / 1000,
      ...(m.path ? { path: m.path } : {}),
    });
  }
  const metadata = {
    tie_break:
      `score desc, then fmix32(fnv1a32(query_id) ^ fnv1a32(corpus_id)*0x9E3779B1) asc, then corpus_id asc; seed ${TIE_SEED}`,
    depth: String(RANKINGS_DEPTH),
    ks: JSON.stringify(ks),
    similarity: JSON.stringify(similarities),
  };
  result.rankings = await writeTable("rankings", rankings, RANKINGS, { metadata });
  result.perQuery = await writePerQuery(perQuery, metadata);
  return result;
}
