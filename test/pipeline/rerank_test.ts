/**
 * The rerank stage on 40 of the quick profile's tasks, end to end through
 * the real CLI: `+exec` rows for bm25 and tfidf and an rrf row in metrics and pairwise
 * (McNemar against the base), no hidden test run, a rerun byte-identical and
 * a run killed mid-rerank resuming to the same bytes; and the "Closing the
 * gap" page of that run's site (test/site/closing_the_gap_page.ts). Both read
 * one run (./rerank_run.ts), so it is made once.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import * as arrow from "apache-arrow";
import { readRows } from "../../src/io/arrow_table.ts";
import { sha256Hex } from "../../src/io/hash.ts";
import { recomputeMetricsFromRankings } from "../../src/stats/recompute.ts";
import { openRunDatabase, runSql } from "../../src/sql/run_database.ts";
import { finish, killRun, reproduce } from "./_reproduce.ts";
import { RERANKERS, rerankRun } from "./rerank_run.ts";
import { checkClosingTheGapPage } from "../site/closing_the_gap_page.ts";

/** Tables that must be byte-identical (rerank_times is a measurement). */
const DETERMINISTIC = [
  "rerank_rankings",
  "rerank_per_query",
  "rerank_cost",
  "test_split",
  "metrics",
  "pairwise",
];

function digests(out: string): Record<string, string> {
  return Object.fromEntries(
    DETERMINISTIC.map((n) => [n, sha256Hex(Deno.readFileSync(join(out, "tables", `${n}.arrow`)))]),
  );
}

function removeRerankOutputs(out: string): void {
  for (
    const n of ["rerank_rankings", "rerank_per_query", "rerank_cost", "rerank_times", "test_split"]
  ) {
    Deno.removeSync(join(out, "tables", `${n}.arrow`));
  }
}

type Row = Record<string, unknown>;
const rows = (out: string, name: string) => readRows<Row>(join(out, "tables", `${name}.arrow`));

Deno.test({
  name: "Closing the gap shows a real rerank run's before → after, cost and residual misses",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // First, while the run's tables are those its site was built from: the
    // test below removes and rewrites the rerank tables.
    await checkClosingTheGapPage((await rerankRun()).out);
  },
});

Deno.test({
  name:
    "rerank stage: +exec and rrf configs in metrics and pairwise, hidden tests never run, deterministic, resumable",
  sanitizeResources: false,
  async fn() {
    const { out, profile } = await rerankRun();

    const queries = await rows(out, "queries");
    const n = queries.length;
    ok(n >= 30, `${n} queries`);

    // metrics: a row per reranked config; pairwise: McNemar of each against its base.
    const metrics = await rows(out, "metrics");
    const exec1 = (c: string) =>
      metrics.find((m) => m.config === c && m.metric === "exec" && m.k === 1);
    for (const c of RERANKERS) ok(exec1(c), `metrics has exec@1 of ${c}`);
    const pairwise = await rows(out, "pairwise");
    const pair = (a: string, b: string) =>
      pairwise.find((p) =>
        p.config_a === a && p.config_b === b && p.metric === "exec" && p.k === 1
      );
    for (
      const [a, b] of [["bm25", "bm25+exec"], ["tfidf", "tfidf+exec"], ["bm25", "rrf:bm25+tfidf"], [
        "rrf:bm25+tfidf",
        "tfidf",
      ]]
    ) {
      const p = pair(a, b);
      ok(p, `pairwise has ${a} vs ${b}`);
      ok(
        typeof p.p_mcnemar === "number" && typeof p.p_holm === "number",
        `${a} vs ${b}: McNemar p`,
      );
      assertEquals(
        (p.a_only as number) + (p.b_only as number) + (p.both as number) + (p.neither as number),
        n,
      );
    }
    // The canonical passes every visible test, so +exec never moves it down:
    // no query the base gets right at rank 1 is lost.
    assertEquals(pair("bm25", "bm25+exec")!.a_only, 0);
    assertEquals(pair("tfidf", "tfidf+exec")!.a_only, 0);
    const pq = [...await rows(out, "per_query"), ...await rows(out, "rerank_per_query")];
    const value = new Map(
      pq.map((r) => [`${r.config}|${r.query_id}|${r.metric}|${r.k}`, r.value as number]),
    );
    for (const q of queries) {
      for (const base of ["bm25", "tfidf"]) {
        for (const k of [1, 3, 5, 10]) {
          const before = value.get(`${base}|${q.query_id}|exec|${k}`)!;
          const after = value.get(`${base}+exec|${q.query_id}|exec|${k}`)!;
          ok(after >= before, `${base}+exec exec@${k} of ${q.query_id}: ${after} < ${before}`);
        }
      }
    }

    // The reranked metrics are the rankings' own: recomputed from rerank_rankings.
    const rr = await rows(out, "rerank_rankings");
    const recomputed = recomputeMetricsFromRankings(
      rr.filter((r) => String(r.config).endsWith("+exec")) as never,
      queries as never,
    );
    let compared = 0;
    for (const m of metrics.filter((m) => String(m.config).endsWith("+exec"))) {
      const r = recomputed.get(`${m.config}|${m.metric}|${m.k}`);
      if (r === undefined) continue;
      compared++;
      ok(Math.abs(r - (m.value as number)) < 1e-12, `${m.config} ${m.metric}@${m.k}`);
    }
    ok(compared >= 40, `${compared} reranked metrics recomputed`);

    // rrf exec@1 against a hand fusion of the two base top-10 lists (unique winners only).
    const base = await rows(out, "rankings");
    const correct = new Map(queries.map((q) => [q.query_id, new Set(q.correct_ids as string[])]));
    let fused = 0;
    for (const q of queries) {
      const score = new Map<string, number>();
      for (const c of ["bm25", "tfidf"]) {
        for (
          const r of base.filter((r) => r.config === c && r.query_id === q.query_id && r.in_top)
        ) {
          score.set(
            r.corpus_id as string,
            (score.get(r.corpus_id as string) ?? 0) + 1 / (60 + (r.rank as number)),
          );
        }
      }
      const best = Math.max(...score.values());
      const winners = [...score].filter(([, s]) => s === best);
      if (winners.length !== 1) continue;
      fused++;
      const want = correct.get(q.query_id as string)!.has(winners[0][0]) ? 1 : 0;
      assertEquals(value.get(`rrf:bm25+tfidf|${q.query_id}|exec|1`), want, `rrf ${q.query_id}`);
    }
    ok(fused > n / 2, `${fused} queries with a unique fused winner`);

    // Hidden tests never ran: the guard's pair count is the cost's, and nothing hidden.
    const split = await rows(out, "test_split");
    const costs = await rows(out, "rerank_cost");
    const costMeta = arrow.tableFromIPC(Deno.readFileSync(join(out, "tables", "rerank_cost.arrow")))
      .schema.metadata;
    assertEquals(costMeta.get("hidden_pairs"), "0");
    const testsRun = costs.reduce((s, c) => s + (c.tests as number), 0);
    assertEquals(costMeta.get("visible_pairs"), String(testsRun));
    const visibleOf = new Map<string, number>();
    for (const s of split) {
      if (s.visible) {
        visibleOf.set(s.task_id as string, (visibleOf.get(s.task_id as string) ?? 0) + 1);
      }
    }
    for (const task of new Set(split.map((s) => s.task_id as string))) {
      ok(split.some((s) => s.task_id === task && !s.visible), `${task} holds a test back`);
    }
    for (const c of costs.filter((c) => String(c.config).endsWith("+exec"))) {
      const task = queries.find((q) => q.query_id === c.query_id)!.task_id as string;
      assertEquals(c.suites, 10);
      ok(
        (c.tests as number) <= 10 * (visibleOf.get(task) ?? 0),
        `${c.config} ${c.query_id} ran only visible tests`,
      );
    }
    assertEquals(
      costs.filter((c) => c.config === "rrf:bm25+tfidf").every((c) => c.suites === 0),
      true,
    );

    // SQL: rankings and per_query hold the reranked configs.
    const db = await openRunDatabase(join(out, "parquet"), join(out, "tables"));
    try {
      const configs = (await runSql(db, "SELECT DISTINCT config FROM rankings ORDER BY config"))
        .rows
        .map((r) => r.config);
      assertEquals(configs, ["bm25", "bm25+exec", "rrf:bm25+tfidf", "tfidf", "tfidf+exec"]);
      const pqn = await runSql(db, "SELECT count(DISTINCT config) AS n FROM per_query");
      assertEquals(pqn.rows[0].n, 5);
    } finally {
      db.close();
    }

    // Rerun: the rerank stage recomputes byte-identical tables, and stats stays fresh.
    const first = digests(out);
    removeRerankOutputs(out);
    const again = await finish(reproduce(out, profile));
    ok(!again.includes("rerank: up to date"), "the rerank stage ran again");
    ok(again.includes("stats: up to date"), "stats saw the same rerank_per_query");
    assertEquals(digests(out), first);

    // Killed mid-rerank with a cold cache, then completed: same bytes, no suite run twice.
    removeRerankOutputs(out);
    const cache = join(out, "cache", "executions");
    for (const f of Deno.readDirSync(cache)) Deno.removeSync(join(cache, f.name));
    const child = reproduce(out, profile);
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!/rerank: [1-9]\d*\//.test(seen)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`run ended before rerank made progress:\n${seen.slice(-1500)}`);
      seen += value;
    }
    await killRun(child);
    reader.releaseLock();
    await child.stdout.cancel();
    await child.stderr.cancel().catch(() => {});
    ok(
      !Deno.readDirSync(join(out, "tables")).some((e) => e.name === "rerank_per_query.arrow"),
      "killed before the stage finished",
    );
    await finish(reproduce(out, profile));
    assertEquals(digests(out), first);
    for (const f of Deno.readDirSync(cache)) {
      const keys = Deno.readTextFileSync(join(cache, f.name)).split("\n").filter((l) =>
        l.startsWith("{")
      )
        .map((l) => JSON.parse(l).k as string);
      assertEquals(keys.length, new Set(keys).size, `${f.name}: a suite was executed twice`);
    }
  },
});
