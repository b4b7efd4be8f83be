import { readTableRows, type RowOf, writeTable } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import {
  CORPUS,
  PER_QUERY,
  type PerQueryRow,
  QUERIES,
  type QueryRow,
  type RankingRow,
  RANKINGS,
  TASKS,
} from "../tables/schema.ts";
import type { RerankerEntry, RunSuite } from "./reranker.ts";
import { SuiteRunner } from "../oracle/run_suites.ts";
import type { Runtime } from "../oracle/pool.ts";
import { guardVisibleOnly } from "./hidden_guard.ts";
import { parseRerankConfig, RERANKERS, type RerankSpec } from "./reranker_registry.ts";
import type { RerankCandidate, RerankQuery } from "./reranker.ts";
import { RRF_K } from "./rrf.ts";
import { rerankedPerQuery, rerankedRankings } from "./reranked_rows.ts";
import { RERANK_COST, RERANK_TIMES, TEST_SPLIT } from "../tables/rerank.ts";
import { testSplit, VISIBLE_SHARE, visibleAndHidden } from "./visible_tests.ts";

/** Options of {@link runRerankStage}. */
export interface RerankStageOptions {
  /** Reranked config names (profile field `rerankers`); empty: only `test_split` has rows. */
  rerankers: string[];
  /** Seed of the visible/hidden split (the profile's seed). */
  seed: number;
  ks: number[];
  runtime?: Runtime;
  timeoutMs?: number;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Tests a seeded split keeps visible per task (default 1). */
  share?: number;
  quiet?: boolean;
  /** Run suites with this instead of the oracle (tests); still behind the hidden-test guard. */
  runSuite?: RunSuite;
  /** Reranker table (tests); default the registry's. */
  entries?: readonly RerankerEntry[];
}

/** What {@link runRerankStage} did. */
export interface RerankStageResult {
  configs: string[];
  /** (snippet, visible test) pairs the exec rerankers asked for. */
  pairs: number;
  /** Hidden tests asked for (refused): 0. */
  hidden: number;
  tables: Record<string, string>;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rerank stage: choose each task's visible tests (`test_split`), run
 * every reranked config of the profile over its base config(s) of
 * `rankings`, and write its rows in the `rankings` and `per_query` columns
 * (`rerank_rankings`, `rerank_per_query`) with what it cost
 * (`rerank_cost`, and the measured oracle time in `rerank_times`). Suites go
 * through the oracle's cache (resume after a kill) behind the hidden-test
 * guard; every table but `rerank_times` is byte-identical on a rerun.
 */
export async function runRerankStage(options: RerankStageOptions): Promise<RerankStageResult> {
  const entries = options.entries ?? RERANKERS;
  const specs = [...new Set(options.rerankers)].sort().map((c) => parseRerankConfig(c, entries));
  const queries = (await readTableRows(tablePath("queries"), QUERIES))
    .sort((a, b) => byString(a.query_id, b.query_id));
  const tasks = await readTableRows(tablePath("tasks"), TASKS);
  const setupOf = new Map(tasks.map((t) => [t.task_id, t.setup ?? ""]));
  // A HumanEval canonical starts with the prompt (signature + docstring with examples).
  const promptOf = new Map(tasks.map((t) => [t.task_id, t.canonical]));
  const corpus = await readTableRows(tablePath("corpus"), CORPUS);
  const docs = new Map(corpus.map((d) => [d.corpus_id, d]));
  const split = testSplit(
    queries.map((q) => ({ ...q, tests: q.tests ?? [], prompt: promptOf.get(q.task_id) })),
    options.seed,
    options.share ?? VISIBLE_SHARE,
  );
  const tests = visibleAndHidden(split);

  const baseRows = new Map<string, RankingRow[]>();
  if (specs.length > 0) {
    for (const r of await readTableRows(tablePath("rankings"), RANKINGS)) {
      const key = `${r.config}\u0000${r.query_id}`;
      let list = baseRows.get(key);
      if (!list) baseRows.set(key, list = []);
      list.push(r);
    }
  }
  const baseConfigs = new Set([...baseRows.keys()].map((k) => k.split("\u0000")[0]));

  // One runner (one pool) for every suite: opened once, on the first suite
  // (the promise, not its result, is shared, so concurrent first calls
  // cannot each open a pool).
  let runner: Promise<SuiteRunner> | undefined;
  const oracle: RunSuite = async (job) => {
    runner ??= SuiteRunner.open({
      runtime: options.runtime ?? "pyodide",
      timeoutMs: options.timeoutMs,
      quiet: options.quiet,
      label: "rerank",
    });
    const r = await (await runner).run({
      setup: job.setup,
      code: job.code,
      tests: job.tests,
      stopAtTimeout: true,
    });
    return { outcomes: r.outcomes };
  };
  const guard = guardVisibleOnly(options.runSuite ?? oracle, tests);

  const rankings: RankingRow[] = [];
  const perQuery: PerQueryRow[] = [];
  const cost: RowOf<typeof RERANK_COST>[] = [];
  const times: RowOf<typeof RERANK_TIMES>[] = [];
  try {
    for (const spec of specs) {
      for (const b of spec.bases) {
        if (!baseConfigs.has(b)) {
          throw new Error(
            `${spec.config}: base config ${b} is not in ${
              tablePath("rankings")
            } (add it to the profile's configs)`,
          );
        }
      }
      const reranker = await spec.entry.create({
        rrfK: options.rrfK ?? RRF_K,
        runtime: options.runtime ?? "pyodide",
        timeoutMs: options.timeoutMs ?? 1000,
        quiet: options.quiet ?? false,
        runSuite: guard.run,
      });
      const input = queries.map((q) => rerankQuery(spec, q, baseRows, docs, setupOf, tests));
      const result = await reranker.rerank({
        config: spec.config,
        bases: spec.bases,
        k: spec.k,
        queries: input,
      });
      if (result.queries.length !== queries.length) {
        throw new Error(
          `${spec.config}: the reranker answered ${result.queries.length} of ${queries.length} queries`,
        );
      }
      const fusion = spec.entry.bases === 2;
      result.queries.forEach((r, i) => {
        const q = queries[i];
        if (r.query_id !== q.query_id) {
          throw new Error(`${spec.config}: answer ${i} is ${r.query_id}, expected ${q.query_id}`);
        }
        const base = fusion ? null : baseRows.get(`${spec.bases[0]}\u0000${q.query_id}`)!;
        const rows = rerankedRankings(spec.config, q, r.order, base, docs);
        rankings.push(...rows);
        perQuery.push(...rerankedPerQuery(spec.config, q, rows, options.ks, !fusion));
        cost.push({
          config: spec.config,
          query_id: q.query_id,
          suites: r.cost.suites,
          tests: r.cost.tests,
          api_calls: r.cost.api_calls,
          tokens: r.cost.tokens,
          search_units: r.cost.search_units ?? 0,
        });
        times.push({
          config: spec.config,
          query_id: q.query_id,
          oracle_ms: Math.round(r.cost.oracle_seconds * 1e6) / 1e3,
        });
      });
    }
  } finally {
    if (runner) await (await runner).close();
  }
  if (guard.log.hidden !== 0) throw new Error(`rerank: ${guard.log.hidden} hidden tests asked for`);

  const metadata = {
    rerankers: JSON.stringify(specs.map((s) => s.config)),
    rrf_k: String(options.rrfK ?? RRF_K),
    visible_share: String(options.share ?? VISIBLE_SHARE),
    split_seed: String(options.seed),
    score:
      "the reranker's own (exec: 1 passes every visible test; rrf: fused score), else the base's",
    visible_pairs: String(guard.log.pairs),
    hidden_pairs: String(guard.log.hidden),
  };
  const tables: Record<string, string> = {
    rerank_rankings: await writeTable("rerank_rankings", rankings, RANKINGS, { metadata }),
    rerank_per_query: await writeTable("rerank_per_query", perQuery, PER_QUERY, { metadata }),
    rerank_cost: await writeTable("rerank_cost", cost, RERANK_COST, { metadata }),
    rerank_times: await writeTable("rerank_times", times, RERANK_TIMES, { metadata }),
    test_split: await writeTable(
      "test_split",
      split,
      TEST_SPLIT,
      { metadata },
    ),
  };
  return {
    configs: specs.map((s) => s.config),
    pairs: guard.log.pairs,
    hidden: guard.log.hidden,
    tables,
  };
}

function rerankQuery(
  spec: RerankSpec,
  q: QueryRow,
  baseRows: ReadonlyMap<string, RankingRow[]>,
  docs: ReadonlyMap<string, { code: string }>,
  setupOf: ReadonlyMap<string, string>,
  tests: ReadonlyMap<string, { visible: string[] }>,
): RerankQuery {
  const rankings = spec.bases.map((b): RerankCandidate[] => {
    const rows = baseRows.get(`${b}\u0000${q.query_id}`);
    if (!rows) throw new Error(`${spec.config}: ${b} has no rankings for query ${q.query_id}`);
    return rows.filter((r) => r.in_top).sort((x, y) => x.rank - y.rank).slice(0, spec.k)
      .map((r) => ({
        corpus_id: r.corpus_id,
        code: docs.get(r.corpus_id)!.code,
        rank: r.rank,
        score: r.score,
      }));
  });
  return {
    query_id: q.query_id,
    task_id: q.task_id,
    query: q.query,
    entry_point: q.entry_point,
    setup: setupOf.get(q.task_id) ?? "",
    rankings,
    visible_tests: tests.get(q.task_id)?.visible ?? [],
  };
}

if (import.meta.main) {
  const r = await runRerankStage({ rerankers: Deno.args, seed: 20260510, ks: [1, 3, 5, 10] });
  console.log(`rerank: ${r.configs.join(", ")}; ${r.pairs} visible pairs, ${r.hidden} hidden`);
}
