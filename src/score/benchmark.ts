import { pick, readTableRows, type RowOf } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";

const BENCHMARK_QUERY = pick(
  QUERIES,
  "query_id",
  "task_id",
  "source",
  "domain",
  "query",
  "correct_ids",
  "distractor_ids",
);
const POOL_DOC = pick(CORPUS, "corpus_id", "task_id", "label", "bug_type", "code");

/** The columns of `queries.arrow` the scoring uses. */
export type BenchmarkQuery = RowOf<typeof BENCHMARK_QUERY>;

/** The columns of `corpus.arrow` the scoring uses. */
export type PoolDoc = RowOf<typeof POOL_DOC>;

/** Queries and pool, checked for the consistency the metrics rely on. */
export interface Benchmark {
  queries: BenchmarkQuery[];
  corpus: PoolDoc[];
}

/** Read `queries.arrow` and `corpus.arrow` and check them (see {@link checkBenchmark}). */
export async function readBenchmark(): Promise<Benchmark> {
  const queries = await readTableRows(tablePath("queries"), BENCHMARK_QUERY);
  const corpus = await readTableRows(tablePath("corpus"), POOL_DOC);
  checkBenchmark({ queries, corpus }, tablePath("queries"), tablePath("corpus"));
  return { queries, corpus };
}

/**
 * Fail with one line naming the file and id when ids repeat, a query's
 * correct or distractor id is not in the pool, or a query has no correct id.
 */
export function checkBenchmark(b: Benchmark, queriesPath = "queries", corpusPath = "corpus"): void {
  const pool = new Set<string>();
  for (const d of b.corpus) {
    if (typeof d.corpus_id !== "string") throw new Error(`${corpusPath}: a row has no corpus_id`);
    if (pool.has(d.corpus_id)) throw new Error(`${corpusPath}: duplicate corpus_id ${d.corpus_id}`);
    pool.add(d.corpus_id);
  }
  const seen = new Set<string>();
  for (const q of b.queries) {
    if (seen.has(q.query_id)) throw new Error(`${queriesPath}: duplicate query_id ${q.query_id}`);
    seen.add(q.query_id);
    if (!q.correct_ids?.length) {
      throw new Error(`${queriesPath}: query ${q.query_id} has no correct id`);
    }
    for (const id of [...q.correct_ids, ...(q.distractor_ids ?? [])]) {
      if (!pool.has(id)) {
        throw new Error(
          `${queriesPath}: query ${q.query_id} names ${id}, which is not in ${corpusPath}`,
        );
      }
    }
  }
}
