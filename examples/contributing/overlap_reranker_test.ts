/**
 * The overlap reranker plugged in as a contributor would: its entry added to
 * the registry the rerank stage reads, a config `bm25+overlap` named by it,
 * and the real rerank stage writing its rankings and per-query metrics.
 */
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import { readRows, writeTable } from "../../src/io/arrow_table.ts";
import { tablePath } from "../../src/io/paths.ts";
import { CORPUS, QUERIES, RANKINGS, TASKS } from "../../src/tables/schema.ts";
import { parseRerankConfig, RERANKERS } from "../../src/rerank/reranker_registry.ts";
import { runRerankStage } from "../../src/rerank/rerank_stage.ts";
import { overlapEntry } from "./overlap_reranker.ts";

// The "one line" in src/rerank/reranker_registry.ts, done here without editing it.
const entries = [...RERANKERS, overlapEntry];

const TASK_CODE: Record<string, [string, string]> = {
  add: ["add two numbers", "def add_numbers(a, b):\n    return a + b"],
  rev: ["reverse a string", "def reverse_string(s):\n    return s[::-1]"],
  max: ["largest value in a list", "def largest_value(values):\n    return max(values)"],
};
// The base config puts another task's snippet first for every query.
const BASE_ORDER: Record<string, string[]> = {
  add: ["rev", "max", "add"],
  rev: ["max", "rev", "add"],
  max: ["add", "rev", "max"],
};

async function setup(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "execret-overlap-" });
  Deno.env.set("EXECRET_OUT", out);
  Deno.env.delete("EXECRET_CACHE");
  const ids = Object.keys(TASK_CODE);
  const tasks = ids.map((id) => ({
    task_id: `t/${id}`,
    source: "builtin",
    source_id: id,
    domain: "misc",
    domain_inferred: false,
    query: TASK_CODE[id][0],
    entry_point: TASK_CODE[id][1].slice(4, TASK_CODE[id][1].indexOf("(")),
    canonical: TASK_CODE[id][1],
    setup: "",
    tests: ["assert True", "assert 1 == 1"],
    extra_tests: [],
    locator: `example:${id}`,
  }));
  const queries = tasks.map((t) => ({
    query_id: t.task_id,
    task_id: t.task_id,
    source: t.source,
    domain: t.domain,
    query: t.query,
    entry_point: t.entry_point,
    tests: t.tests,
    correct_ids: [`${t.task_id}#c`],
    distractor_ids: [],
  }));
  const corpus = tasks.map((t) => ({
    corpus_id: `${t.task_id}#c`,
    task_id: t.task_id,
    source: t.source,
    domain: t.domain,
    label: "correct",
    bug_type: null,
    operator: null,
    line: null,
    before: null,
    after: null,
    timeout_only: false,
    code: t.canonical,
    code_sha256: "",
  }));
  const rankings = ids.flatMap((q) =>
    BASE_ORDER[q].map((d, i) => ({
      config: "bm25",
      query_id: `t/${q}`,
      rank: i + 1,
      corpus_id: `t/${d}#c`,
      score: 3 - i,
      label: "correct",
      bug_type: null,
      own_task: d === q,
      tie: false,
      in_top: true,
    }))
  );
  await writeTable("tasks", tasks, TASKS, { parquet: false });
  await writeTable("queries", queries, QUERIES, { parquet: false });
  await writeTable("corpus", corpus, CORPUS, { parquet: false });
  await writeTable("rankings", rankings, RANKINGS, { parquet: false });
  return out;
}

Deno.test("overlap reranker: the rerank stage puts each query's own snippet first", async () => {
  const out = await setup();
  try {
    const result = await runRerankStage({
      rerankers: ["bm25+overlap"],
      seed: 20260510,
      ks: [1],
      quiet: true,
      entries,
    });
    assertEquals(result.configs, ["bm25+overlap"]);
    const rows = await readRows<
      { config: string; query_id: string; rank: number; corpus_id: string }
    >(
      tablePath("rerank_rankings"),
    );
    const top = rows.filter((r) => r.rank === 1).map((r) => [r.query_id, r.corpus_id]);
    assertEquals(top, [["t/add", "t/add#c"], ["t/max", "t/max#c"], ["t/rev", "t/rev#c"]]);
    const perQuery = await readRows<{ metric: string; k: number; value: number }>(
      tablePath("rerank_per_query"),
    );
    const exec1 = perQuery.filter((r) => r.metric === "exec" && r.k === 1);
    strictEqual(exec1.length, 3);
    ok(exec1.every((r) => r.value === 1), "exec@1 is 1 for every query after reranking");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("overlap reranker: named by its entry alone, unknown without it", () => {
  strictEqual(parseRerankConfig("bm25+overlap@5", entries).k, 5);
  throws(() => parseRerankConfig("bm25+overlap"), /"bm25\+overlap": not <base>\+exec/);
});
