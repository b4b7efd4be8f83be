import { join } from "node:path";
import { pick, readTableRows } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { fileExists } from "../io/file_exists.ts";
import { outDir, tablePath } from "../io/paths.ts";
import { suiteCodeSha, testsSha } from "../oracle/cache.ts";
import { CORPUS, EXECUTIONS, METRICS, QUERIES, RANKINGS, TASKS } from "../tables/schema.ts";
import { PyFloat, pyRound, pythonJson } from "./python_json.ts";

/** Folder of the per-config result files. */
export function resultsDir(): string {
  return join(outDir(), "results");
}

/** Where a config's result file goes. */
export function resultsPath(config: string): string {
  return join(resultsDir(), `${config}.json`);
}

/** The release's metric names (results/README.md) for the kit's. */
const RELEASE_METRICS: readonly [string, string][] = [
  ["exec", "exec"],
  ["precision", "precision"],
  ["ndcg", "ndcg"],
  ["gap", "exec_ndcg_gap"],
];

/** How many results each query lists, as the release's files do. */
const TOP = 10;

const round = (x: number, digits: number) => new PyFloat(pyRound(x, digits));

/**
 * Write `out/results/<config>.json` for every config in the rankings (and
 * the reranked ones), in the per-model schema the paper's release documents
 * in `results/README.md`: `model`, `n_queries`, `n_corpus`, `ks`, `metrics`
 * (`exec@k`, `precision@k`, `ndcg@k`, `exec_ndcg_gap@k`, means over queries
 * at 4 decimals) and `per_query`, each with its `top_results` (`rank`,
 * `corpus_id`, `label`, `bug_type` — `""` on a canonical —, `similarity` at
 * 6 decimals, `passes_all_tests`, `test_results`: the outcomes of the
 * query's own canonical or distractor against its tests, and an empty list
 * for another query's snippet, as the release's execution cache holds only
 * the own pairs).
 * Queries and snippets keep the release's own ids on a release run. Written
 * as Python's `json.dumps` writes it, so the file can be dropped into a copy
 * of the release beside its 24. Returns the paths, by config.
 */
export async function writeResultsFiles(ks: readonly number[]): Promise<Record<string, string>> {
  const tasks = new Map(
    (await readTableRows(
      tablePath("tasks"),
      pick(TASKS, "task_id", "source", "source_id", "setup"),
    )).map((t) => [t.task_id, t]),
  );
  const queries = await readTableRows(
    tablePath("queries"),
    pick(QUERIES, "query_id", "task_id", "query", "tests", "correct_ids"),
  );
  const corpus = new Map(
    (await readTableRows(
      tablePath("corpus"),
      pick(CORPUS, "corpus_id", "task_id", "label", "bug_type", "code"),
    )).map((c) => [c.corpus_id, c]),
  );
  const outcomes = new Map<string, string[]>();
  for (const e of await readTableRows(tablePath("executions"), EXECUTIONS)) {
    const key = `${e.code_sha256}:${e.tests_sha256}`;
    const list = outcomes.get(key) ?? [];
    list[e.test_index] = e.outcome;
    outcomes.set(key, list);
  }
  const rankings = await readTableRows(tablePath("rankings"), RANKINGS);
  if (await fileExists(tablePath("rerank_rankings"))) {
    for (const r of await readTableRows(tablePath("rerank_rankings"), RANKINGS)) rankings.push(r);
  }
  const metrics = await readTableRows(tablePath("metrics"), METRICS);

  // Top results per (config, query), best first.
  const tops = new Map<string, Map<string, typeof rankings>>();
  for (const r of rankings) {
    if (!r.in_top || r.rank > TOP) continue;
    const byQuery = tops.get(r.config) ?? new Map();
    tops.set(r.config, byQuery);
    const list = byQuery.get(r.query_id) ?? [];
    list.push(r);
    byQuery.set(r.query_id, list);
  }
  const releaseId = (queryId: string, taskId: string) => {
    const t = tasks.get(taskId);
    return t?.source === "release" ? t.source_id : queryId;
  };
  const written: Record<string, string> = {};
  for (const config of [...tops.keys()].sort()) {
    const value = new Map(
      metrics.filter((m) => m.config === config).map((m) => [`${m.metric}@${m.k}`, m.value]),
    );
    const fileMetrics: Record<string, PyFloat> = {};
    for (const k of ks) {
      for (const [kit, released] of RELEASE_METRICS) {
        const v = value.get(`${kit}@${k}`);
        if (v !== undefined && !Number.isNaN(v)) fileMetrics[`${released}@${k}`] = round(v, 4);
      }
    }
    const byQuery = tops.get(config)!;
    const perQuery = queries.map((q) => {
      const task = tasks.get(q.task_id);
      const tests = testsSha(q.tests);
      const top = (byQuery.get(q.query_id) ?? []).sort((a, b) => a.rank - b.rank);
      return {
        query_id: releaseId(q.query_id, q.task_id),
        query: q.query,
        correct_corpus_ids: q.correct_ids,
        top_results: top.map((r) => {
          const snippet = corpus.get(r.corpus_id);
          // Only the query's own snippets, as the release's execution cache holds
          // them: so `passes_all_tests` agrees with exec@k as the file defines it.
          const ran = snippet?.task_id === q.task_id
            ? outcomes.get(`${suiteCodeSha(task?.setup ?? "", snippet.code)}:${tests}`)
            : undefined;
          const list = ran && ran.length === q.tests.length ? ran : [];
          return {
            rank: r.rank,
            corpus_id: r.corpus_id,
            label: snippet?.label ?? r.label,
            bug_type: snippet?.bug_type ?? "",
            similarity: round(r.score, 6),
            passes_all_tests: list.length > 0 && list.every((o) => o === "pass"),
            test_results: list,
          };
        }),
      };
    });
    const file = {
      model: config,
      n_queries: queries.length,
      n_corpus: corpus.size,
      ks: [...ks],
      metrics: fileMetrics,
      per_query: perQuery,
    };
    const path = resultsPath(config);
    await atomicWrite(path, pythonJson(file));
    written[config] = path;
  }
  return written;
}
