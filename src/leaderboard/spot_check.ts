/**
 * The re-embedding spot check: scoring a run from its lists cannot tell a
 * list the model made from one made with knowledge of the labels (a
 * canonical moved to the top by hand). Where the model can be reached, the
 * kit runs it again on a sample of the run's queries and compares.
 *
 * The sample: {@link SPOT_QUERIES} queries drawn with a seed taken from the
 * run file's own SHA-256, so a contributor cannot choose which queries are
 * checked without changing the file (and with it the draw). For each, the
 * documents the run lists for it are scored again by the model (a sparse
 * model scores the whole pool, since its weights depend on it) and ranked;
 * two numbers compare the rankings: how many queries have the run's first
 * document first again (or tied with the first within a relative 1e-4),
 * and the mean overlap of the two top tens. The thresholds
 * ({@link MIN_RANK1_AGREEMENT}, {@link MIN_TOP10_OVERLAP}) leave room for
 * what honest re-runs differ in (a hosted model's float noise and silent
 * updates flip near-ties, and near-identical snippets make many) and none
 * for a run whose canonicals were lifted: the canonical scores below one of
 * its own buggy copies for 67–78% of queries under the paper's leading
 * models, so a label-informed list disagrees at rank 1 on most of the sample.
 *
 * @module
 */
import type { Invocation } from "../embed/invocation.ts";
import type { Provider } from "../embed/provider.ts";
import { below, xoshiro128ss } from "../common/rng.ts";
import { fnv1a32, tieKey } from "../score/tie_break.ts";
import { denseScoreMatrix, type VectorBlock } from "../score/score_matrix.ts";
import type { ScoringPool } from "./score_entry.ts";
import type { ScoredRunFile } from "./run_file.ts";

/** Queries re-embedded per entry. */
export const SPOT_QUERIES = 20;
/** Share of sampled queries whose first document must be first again. */
export const MIN_RANK1_AGREEMENT = 0.9;
/** Mean share of the top ten both rankings hold. */
export const MIN_TOP10_OVERLAP = 0.8;

/** The spot check's figures and verdict. */
export interface SpotCheck {
  queries: number;
  rank1Agreement: number;
  top10Overlap: number;
  passed: boolean;
  summary: string;
}

/** The sampled query ids: {@link SPOT_QUERIES} of `ids`, drawn with the run's digest as seed. */
export function spotSample(ids: readonly string[], runSha256: string): string[] {
  const next = xoshiro128ss(BigInt(`0x${runSha256.slice(0, 16)}`));
  const pool = [...ids].sort();
  const n = Math.min(SPOT_QUERIES, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + below(next(), pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n).sort();
}

/** One row-major block of equal-length vectors. */
function block(ids: string[], vectors: Float32Array[]): VectorBlock {
  const dims = vectors[0]?.length ?? 0;
  const data = new Float32Array(vectors.length * dims);
  vectors.forEach((v, i) => data.set(v, i * dims));
  return { ids, dims, data };
}

/**
 * Compare a run's lists with `provider`'s scores of the same documents on
 * the sampled queries (see the module comment).
 */
export async function spotCheck(
  run: ScoredRunFile,
  pool: ScoringPool,
  inv: Invocation,
  provider: Provider,
): Promise<SpotCheck> {
  const queries = new Map(pool.benchmark.queries.map((q) => [q.query_id, q]));
  const docs = new Map(pool.benchmark.corpus.map((d) => [d.corpus_id, d]));
  const sample = spotSample([...queries.keys()], run.sha256);
  const lists = sample.map((id) => run.parsed.queries.get(id)!.lines.map((l) => l.doc));
  let scoresOf: (i: number) => Promise<Map<string, number>>;
  if (provider.kind === "sparse") {
    const corpus = pool.benchmark.corpus;
    const matrix = await provider.score(
      sample.map((id) => queries.get(id)!.query),
      corpus.map((d) => d.code),
    );
    scoresOf = (i) => {
      const row = new Map<string, number>();
      for (const id of lists[i]) row.set(id, matrix[i * corpus.length + pool.ctx.index.get(id)!]);
      return Promise.resolve(row);
    };
  } else {
    const qv = await provider.embed(sample.map((id) => queries.get(id)!.query), "query");
    const ids = [...new Set(lists.flat())];
    const dv = await provider.embed(ids.map((id) => docs.get(id)!.code), "document");
    // Scored as the score stage scores a config (same normalisation, kernel
    // and float32 bits), so a deterministic model's ties are the run's ties.
    const matrix = await denseScoreMatrix(block(sample, qv), block(ids, dv), inv.similarity);
    const column = new Map(ids.map((id, j) => [id, j]));
    scoresOf = (i) =>
      Promise.resolve(
        new Map(lists[i].map((id) => [id, matrix.scores[i * ids.length + column.get(id)!]])),
      );
  }
  let agree = 0, overlap = 0;
  for (let i = 0; i < sample.length; i++) {
    const scores = await scoresOf(i);
    // The kit's own tie-break (tie_break.ts), so a deterministic model's re-run ranks alike.
    const qh = fnv1a32(sample[i]);
    const key = (id: string) => tieKey(qh, fnv1a32(id));
    const ranked = [...lists[i]].sort((a, b) =>
      scores.get(b)! - scores.get(a)! || key(a) - key(b) || (a < b ? -1 : 1)
    );
    const best = scores.get(ranked[0])!;
    const first = scores.get(lists[i][0])!;
    if (Math.abs(best - first) <= 1e-4 * Math.max(Math.abs(best), 1e-12)) agree++;
    const k = Math.min(10, lists[i].length);
    const mine = new Set(lists[i].slice(0, k));
    overlap += ranked.slice(0, k).filter((id) => mine.has(id)).length / k;
  }
  const rank1Agreement = agree / sample.length;
  const top10Overlap = overlap / sample.length;
  const passed = rank1Agreement >= MIN_RANK1_AGREEMENT && top10Overlap >= MIN_TOP10_OVERLAP;
  return {
    queries: sample.length,
    rank1Agreement,
    top10Overlap,
    passed,
    summary:
      `re-embedding ${sample.length} sampled queries with ${inv.model} put the run's first document first in ${agree} (${
        passed ? "" : `at least ${Math.ceil(MIN_RANK1_AGREEMENT * sample.length)} needed; `
      }mean top-10 overlap ${top10Overlap.toFixed(2)}, at least ${MIN_TOP10_OVERLAP} needed)`,
  };
}
