import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  readTableRows,
  tableFromRows,
  type TableSpec,
  toIpcStream,
  toParquet,
} from "../../io/arrow_table.ts";
import { CORPUS, EXECUTIONS, METRICS, RANKINGS, TASKS } from "../../tables/schema.ts";
import { snippetOutcomes } from "../snippet_outcomes.ts";
import { SNIPPET_OUTCOMES } from "../../tables/outcomes.ts";
import { openRunDatabase, runSql } from "../../sql/run_database.ts";
import { makeFixtureRunInProcess } from "../../../test/fixtures/run/fixture_process.ts";
import { EXAMPLE_QUERIES } from "./examples.ts";
import * as Q from "./queries.ts";

Deno.test("report SQL agrees with the fixture tables", async (t) => {
  const out = await Deno.makeTempDir({ prefix: "execret-report-sql-" });
  await makeFixtureRunInProcess(out);
  // The explorer's outcomes table is built by a loader, not a stage: add it as Parquet.
  const tableRows = <S extends TableSpec>(name: string, spec: S) =>
    readTableRows(join(out, "tables", `${name}.arrow`), spec);
  const outcomes = snippetOutcomes(
    await tableRows("tasks", TASKS),
    await tableRows("corpus", CORPUS),
    await tableRows("executions", EXECUTIONS),
  );
  await Deno.writeFile(
    join(out, "parquet", "outcomes.parquet"),
    toParquet(toIpcStream(tableFromRows(outcomes, SNIPPET_OUTCOMES))),
  );
  const db = await openRunDatabase(join(out, "parquet"), join(out, "tables"));
  // So is the margins cut of per_query.
  await runSql(db, "CREATE VIEW margins AS SELECT * FROM per_query WHERE metric = 'margin'");
  const rankings = await tableRows("rankings", RANKINGS);
  try {
    await t.step("every report query and example runs and returns rows", async () => {
      for (const [name, { sql, params }] of Object.entries(Q.REPORT_QUERIES)) {
        const { rows } = await runSql(db, sql, params);
        ok(rows.length > 0, `${name} returned no rows`);
      }
      for (const ex of EXAMPLE_QUERIES) {
        ok((await runSql(db, ex.sql)).rows.length > 0, ex.title);
      }
    });

    await t.step("margin boxes and bins summarise every query's margin", async () => {
      const margins = (await runSql(db, Q.MARGIN_SQL)).rows;
      const boxes = (await runSql(db, Q.MARGIN_BOX_SQL)).rows;
      const bins = (await runSql(db, Q.MARGIN_BINS_SQL)).rows;
      for (const box of boxes) {
        const mine = margins.filter((m) => m.config === box.config).map((m) => m.margin as number)
          .sort((a, b) => a - b);
        assertEquals(box.n, mine.length);
        assertEquals([box.lo, box.hi], [mine[0], mine[mine.length - 1]]);
        assertEquals(box.scale, Math.max(...mine.map(Math.abs)));
        ok((box.q1 as number) <= (box.med as number) && (box.med as number) <= (box.q3 as number));
        const counted = bins.filter((b) => b.config === box.config);
        assertEquals(counted.reduce((s, b) => s + (b.queries as number), 0), mine.length);
        assertEquals(
          counted.filter((b) => b.side === "below").reduce((s, b) => s + (b.queries as number), 0),
          mine.filter((m) => m < 0).length,
        );
      }
      assertEquals(boxes.length, new Set(margins.map((m) => m.config)).size);
    });

    await t.step("headline is the best exec@1 config with its exec@10", async () => {
      const metrics = await tableRows("metrics", METRICS);
      const exec1 = metrics.filter((m) => m.metric === "exec" && m.k === 1)
        .sort((a, b) => b.value - a.value);
      const best = exec1[0];
      const top = metrics.find((m) =>
        m.metric === "exec" && m.k === 10 && m.config === best.config
      )!;
      const [row] = (await runSql(db, Q.HEADLINE_SQL)).rows;
      assertEquals([row.config, row.exec1, row.top_k, row.exec_top], [
        best.config,
        best.value,
        10,
        top.value,
      ]);
    });

    await t.step("miss share and canonical-below share match a direct count", async () => {
      const configs = [...new Set(rankings.map((r) => r.config))].sort();
      const share = (await runSql(db, Q.MISS_SHARE_SQL)).rows;
      const below = (await runSql(db, Q.CANONICAL_BELOW_SQL)).rows;
      for (const [i, config] of configs.entries()) {
        const first = rankings.filter((r) => r.config === config && r.rank === 1);
        const misses = first.filter((r) => !(r.label === "correct" && r.own_task));
        const own = misses.filter((r) => r.label === "incorrect" && r.own_task);
        assertEquals(share[i].misses, misses.length);
        assertEquals(share[i].own_distractor_misses, own.length);
        let n = 0;
        const queries = [...new Set(rankings.map((r) => r.query_id))];
        for (const q of queries) {
          const rows = rankings.filter((r) =>
            r.config === config && r.query_id === q && r.own_task
          );
          const canon = rows.find((r) => r.label === "correct")!;
          if (rows.some((r) => r.label === "incorrect" && r.score > canon.score)) n++;
        }
        assertEquals(below[i].below, n);
        assertEquals(below[i].queries, queries.length);
      }
    });

    await t.step("shares and fool rates come from the stats stage's metrics", async () => {
      const metrics = await tableRows("metrics", METRICS);
      const shares = (await runSql(db, Q.SHARES_SQL)).rows;
      const expected = metrics.filter((m) =>
        m.metric === "miss_own_distractor" || m.metric === "below_distractor"
      );
      assertEquals(shares.length, expected.length);
      const outrank = (await runSql(db, Q.OUTRANK_SQL)).rows;
      for (const o of outrank) {
        const m = metrics.find((x) =>
          x.config === o.config && x.metric === `outrank:${o.bug_type}`
        );
        assertEquals(o.fool_rate, m?.value);
      }
      assertEquals(
        outrank.length,
        metrics.filter((m) => String(m.metric).startsWith("outrank:")).length,
      );
    });

    await t.step("fool rate counts own distractors ranked above the canonical", async () => {
      const rows = (await runSql(db, Q.FOOL_RATE_SQL)).rows;
      const total = rows.reduce((s, r) => s + (r.fooled as number), 0);
      let direct = 0;
      for (const r of rankings) {
        if (!r.own_task || r.label !== "incorrect") continue;
        const canon = rankings.find((c) =>
          c.config === r.config && c.query_id === r.query_id && c.own_task && c.label === "correct"
        )!;
        if (r.rank < canon.rank) direct++;
      }
      assertEquals(total, direct);
    });

    await t.step("explorer queries are parameterised by query id", async () => {
      const snippets = (await runSql(db, Q.QUERY_SNIPPETS_SQL, ["builtin/binary_search"])).rows;
      assertEquals(snippets[0].corpus_id, "builtin/binary_search#c");
      ok(snippets.slice(1).every((s) => s.label === "incorrect" && s.before && s.after));
      // Every snippet of a task with a setup still finds all its outcomes.
      const task = "mbpp/127";
      const shown = (await runSql(db, Q.QUERY_OUTCOMES_SQL, [task])).rows;
      const tests = (await tableRows("tasks", TASKS))
        .find((t) => t.task_id === task)!.tests.length;
      const pool = (await runSql(db, Q.QUERY_SNIPPETS_SQL, [task])).rows.length;
      assertEquals(shown.length, tests * pool);
    });
  } finally {
    db.close();
    await Deno.remove(out, { recursive: true });
  }
});
