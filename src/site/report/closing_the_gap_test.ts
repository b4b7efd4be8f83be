import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  type RowOf,
  tableFromRows,
  type TableSpec,
  toIpcStream,
  toParquet,
  withNulls,
} from "../../io/arrow_table.ts";
import { openRunDatabase, runSql } from "../../sql/run_database.ts";
import { METRICS, PAIRWISE, RANKINGS } from "../../tables/schema.ts";
import { RERANK_COST, RERANK_TIMES, TEST_SPLIT } from "../../tables/rerank.ts";
import {
  beforeAfterRows,
  costPoints,
  EXEC_AT_K_SQL,
  EXEC_PAIRS_SQL,
  RERANK_COST_SQL,
  rerankedBases,
  RESIDUAL_MISSES_SQL,
  TEST_SPLIT_SQL,
} from "./closing_the_gap.ts";

Deno.test("rerankedBases: the base configs a reranked name names", () => {
  assertEquals(rerankedBases("bm25+exec"), ["bm25"]);
  assertEquals(rerankedBases("use+exec@5"), ["use"]);
  assertEquals(rerankedBases("rrf:bm25+use"), ["bm25", "use"]);
  assertEquals(rerankedBases("voyage-code-3+rerank:cohere-v3.5"), ["voyage-code-3"]);
  assertEquals(rerankedBases("bm25"), []);
  assertEquals(rerankedBases("+exec"), []);
});

const exec = [
  { config: "bm25", value: 0.1, ci_low: 0.05, ci_high: 0.15 },
  { config: "bm25+exec", value: 0.4, ci_low: 0.3, ci_high: 0.5 },
  { config: "rrf:bm25+use", value: 0.2, ci_low: 0.1, ci_high: 0.3 },
  { config: "use", value: 0.05, ci_low: 0.0, ci_high: 0.1 },
];
const pairs = [
  {
    config_a: "bm25",
    config_b: "bm25+exec",
    a_only: 1,
    b_only: 20,
    p_mcnemar: 0.001,
    p_holm: 0.004,
  },
  {
    config_a: "bm25",
    config_b: "rrf:bm25+use",
    a_only: 2,
    b_only: 9,
    p_mcnemar: 0.06,
    p_holm: 0.2,
  },
  {
    config_a: "rrf:bm25+use",
    config_b: "use",
    a_only: 12,
    b_only: 3,
    p_mcnemar: 0.03,
    p_holm: 0.1,
  },
];

Deno.test("beforeAfterRows: base → reranked with intervals, McNemar read the right way round", () => {
  const rows = beforeAfterRows(["bm25+exec", "rrf:bm25+use", "gone+exec"], exec, pairs);
  assertEquals(rows.map((r) => [r.config, r.base, r.gained, r.lost, r.p_holm]), [
    ["bm25+exec", "bm25", 20, 1, 0.004],
    ["rrf:bm25+use", "bm25", 9, 2, 0.2],
    ["rrf:bm25+use", "use", 12, 3, 0.1], // pairwise holds (rrf, use): a_only are the gains
  ]);
  ok(Math.abs(rows[0].delta - 0.3) < 1e-12);
  assertEquals([rows[0].before_low, rows[0].after_high], [0.05, 0.5]);
  assertEquals(beforeAfterRows(["bm25+exec"], exec, [])[0].p_mcnemar, null);
});

Deno.test("costPoints: each base once at zero cost, each reranked config at its mean cost", () => {
  const rows = beforeAfterRows(["bm25+exec", "rrf:bm25+use"], exec, pairs);
  const points = costPoints(rows, [
    { config: "bm25+exec", tests: 10, oracle_seconds: 0.05, api_calls: 0 },
    { config: "rrf:bm25+use", tests: 0, oracle_seconds: 0, api_calls: 0 },
  ]);
  assertEquals(points.map((p) => [p.config, p.exec1, p.tests]), [
    ["bm25", 0.1, 0],
    ["bm25+exec", 0.4, 10],
    ["rrf:bm25+use", 0.2, 0],
    ["use", 0.05, 0],
  ]);
});

Deno.test("closing-the-gap SQL over small tables", async () => {
  const dir = await Deno.makeTempDir({ prefix: "execret-closing-" });
  // The columns a query does not read are left null.
  const put = async <S extends TableSpec>(name: string, rows: Partial<RowOf<S>>[], spec: S) =>
    await Deno.writeFile(
      join(dir, `${name}.parquet`),
      toParquet(toIpcStream(tableFromRows(withNulls(spec, rows), spec))),
    );
  const rank = (
    config: string,
    query_id: string,
    corpus_id: string,
    score: number,
    label: string,
    bug: string | null,
    own: boolean,
  ) => ({
    config,
    query_id,
    rank: 1,
    corpus_id,
    score,
    label,
    bug_type: bug,
    own_task: own,
    tie: false,
    in_top: true,
  });
  await put("metrics", exec.map((e) => ({ ...e, metric: "exec", k: 1, n: 3 })), METRICS);
  await put("pairwise", pairs.map((p) => ({ ...p, metric: "exec", k: 1 })), PAIRWISE);
  await put("rerank_cost", [
    { config: "bm25+exec", query_id: "a", suites: 10, tests: 10, api_calls: 0, tokens: 0 },
    { config: "bm25+exec", query_id: "b", suites: 10, tests: 20, api_calls: 0, tokens: 0 },
  ], RERANK_COST);
  await put("rerank_times", [
    { config: "bm25+exec", query_id: "a", oracle_ms: 30 },
    { config: "bm25+exec", query_id: "b", oracle_ms: 10 },
  ], RERANK_TIMES);
  await put("rerank_rankings", [
    rank("bm25+exec", "a", "a#m0", 1, "incorrect", "off_by_one", true),
    rank("bm25+exec", "b", "b#m1", 1, "incorrect", "off_by_one", true),
    rank("bm25+exec", "c", "x#c", 0, "correct", null, false),
    rank("bm25+exec", "d", "d#c", 1, "correct", null, true), // a hit
    rank("rrf:bm25+use", "a", "a#m0", 0.03, "incorrect", "off_by_one", true), // not exec
  ], RANKINGS);
  await put("test_split", [
    {
      task_id: "t",
      origin: "suite",
      test_index: 0,
      test: "assert f(1)",
      visible: true,
      how: "split",
    },
    {
      task_id: "t",
      origin: "suite",
      test_index: 1,
      test: "assert f(2)",
      visible: false,
      how: "split",
    },
    {
      task_id: "h",
      origin: "docstring",
      test_index: 0,
      test: "assert (f(0)) == (1)",
      visible: true,
      how: "docstring",
    },
    {
      task_id: "h",
      origin: "suite",
      test_index: 0,
      test: "check(f)",
      visible: false,
      how: "docstring",
    },
  ], TEST_SPLIT);
  const db = await openRunDatabase(dir, join(dir, "none"));
  try {
    const cost = (await runSql(db, RERANK_COST_SQL)).rows;
    assertEquals(cost, [{
      config: "bm25+exec",
      queries: 2,
      suites: 10,
      tests: 15,
      oracle_seconds: 0.02,
      api_calls: 0,
      tokens: 0,
    }]);
    const residual = (await runSql(db, RESIDUAL_MISSES_SQL)).rows;
    assertEquals(residual, [
      { config: "bm25+exec", winner: "off_by_one", passes_visible: true, misses: 2, example: "a" },
      {
        config: "bm25+exec",
        winner: "another task's snippet",
        passes_visible: false,
        misses: 1,
        example: "c",
      },
    ]);
    const split = (await runSql(db, TEST_SPLIT_SQL)).rows;
    assertEquals(split, [
      { how: "docstring", tasks: 1, visible: 1, hidden: 1 },
      { how: "split", tasks: 1, visible: 1, hidden: 1 },
    ]);
    const e = (await runSql(db, EXEC_AT_K_SQL, [1])).rows;
    const p = (await runSql(db, EXEC_PAIRS_SQL, [1])).rows;
    const rows = beforeAfterRows(cost.map((c) => c.config as string), e as never, p as never);
    assertEquals(rows.map((r) => [r.base, r.gained, r.lost]), [["bm25", 20, 1]]);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
