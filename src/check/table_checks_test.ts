import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { join } from "node:path";
import { withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, MUTANTS, QUERIES, RANKINGS, TASKS } from "../tables/schema.ts";
import { runChecks } from "./check.ts";
import { queriesMatchCorpus, rankingsComplete, uniqueIds } from "./table_checks.ts";

async function writeRun(corruptLabel: boolean) {
  const dir = await Deno.makeTempDir();
  Deno.env.set("EXECRET_OUT", dir);
  const tasks = ["t/1", "t/2"];
  await writeTable("tasks", withNulls(TASKS, tasks.map((task_id) => ({ task_id }))), TASKS);
  await writeTable(
    "mutants",
    withNulls(MUTANTS, tasks.map((t) => ({ snippet_id: `${t}#m0`, task_id: t }))),
    MUTANTS,
  );
  await writeTable(
    "queries",
    withNulls(
      QUERIES,
      tasks.map((t) => ({
        query_id: t,
        task_id: t,
        correct_ids: [`${t}#c`],
        distractor_ids: [`${t}#m0`],
      })),
    ),
    QUERIES,
  );
  const corpus = tasks.flatMap((t) => [
    { corpus_id: `${t}#c`, task_id: t, label: "correct" },
    {
      corpus_id: `${t}#m0`,
      task_id: t,
      label: corruptLabel && t === "t/2" ? "correct" : "incorrect",
      bug_type: "off_by_one",
    },
  ]);
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS);
  const rankings = tasks.flatMap((t) =>
    corpus.map((c, i) => ({
      config: "bm25",
      query_id: t,
      rank: i + 1,
      corpus_id: c.corpus_id,
      label: c.label,
      in_top: true,
    }))
  );
  await writeTable("rankings", withNulls(RANKINGS, rankings), RANKINGS);
  return dir;
}

Deno.test("table checks pass on a consistent run and name the broken row otherwise", async () => {
  await writeRun(false);
  const good = await runChecks([uniqueIds, queriesMatchCorpus, rankingsComplete]);
  assertEquals(good.map((r) => r.ok), [true, true, true]);
  const dir = await writeRun(true);
  const bad = await runChecks([uniqueIds, queriesMatchCorpus, rankingsComplete]);
  assertEquals(bad.map((r) => r.ok), [true, false, true]);
  match(bad[1].detail, /t\/2#m0: label correct, expected incorrect/);
  await Deno.remove(join(dir, "tables", "rankings.arrow"));
  const missing = await runChecks([rankingsComplete]);
  assertEquals(missing[0].ok, false);
  match(missing[0].detail, /rankings\.arrow: table not found/);
  Deno.env.delete("EXECRET_OUT");
});
