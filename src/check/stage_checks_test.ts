import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { join } from "node:path";
import { withNulls, writeTable } from "../io/arrow_table.ts";
import { sha256Hex } from "../io/hash.ts";
import { CORPUS, EXECUTIONS, MUTANTS, QUERIES, TASKS } from "../tables/schema.ts";
import { suiteCodeSha, testsSha } from "../oracle/cache.ts";
import { runChecks } from "./check.ts";
import { distractorsOneEdit, embeddingsHealthy, poolVerifiedByExecutions } from "./stage_checks.ts";

const canonical = "def lt(a, b):\n    return a < b\n";
const buggy = "def lt(a, b):\n    return a <= b\n";
const tests = ["assert lt(1, 2)", "assert not lt(2, 2)"];

/** One task, its canonical and one distractor, with the given distractor outcomes. */
async function writeRun(distractorOutcomes: string[], recordedAfter = "    return a <= b") {
  Deno.env.set("EXECRET_OUT", await Deno.makeTempDir());
  await writeTable(
    "tasks",
    withNulls(TASKS, [{ task_id: "t/1", canonical, setup: "", tests }]),
    TASKS,
  );
  await writeTable(
    "mutants",
    withNulls(MUTANTS, [{
      snippet_id: "t/1#m0",
      task_id: "t/1",
      bug_type: "wrong_comparison",
      operator: "lt_to_le",
      line: 2,
      before: "    return a < b",
      after: recordedAfter,
      code: buggy,
      code_sha256: sha256Hex(buggy),
    }]),
    MUTANTS,
  );
  await writeTable(
    "corpus",
    withNulls(CORPUS, [
      { corpus_id: "t/1#c", task_id: "t/1", label: "correct", code: canonical },
      {
        corpus_id: "t/1#m0",
        task_id: "t/1",
        label: "incorrect",
        bug_type: "wrong_comparison",
        code: buggy,
      },
    ]),
    CORPUS,
  );
  const rows = (code: string, outcomes: string[]) =>
    outcomes.map((outcome, test_index) => ({
      code_sha256: suiteCodeSha("", code),
      tests_sha256: testsSha(tests),
      runtime: "test",
      test_index,
      outcome,
    }));
  await writeTable(
    "executions",
    withNulls(EXECUTIONS, [
      ...rows(canonical, ["pass", "pass"]),
      ...rows(buggy, distractorOutcomes),
    ]),
    EXECUTIONS,
  );
}

Deno.test("a distractor that fails a test and is one recorded edit passes both checks", async () => {
  await writeRun(["pass", "FAIL"]);
  const results = await runChecks([poolVerifiedByExecutions, distractorsOneEdit]);
  assertEquals(results.map((r) => r.ok), [true, true]);
});

Deno.test("a distractor that passes every test fails the execution check", async () => {
  await writeRun(["pass", "pass"]);
  const [result] = await runChecks([poolVerifiedByExecutions]);
  assertEquals(result.ok, false);
  match(result.detail, /t\/1#m0: distractor passes every test/);
});

Deno.test("a distractor whose recorded edit is not its code fails the one-edit check", async () => {
  await writeRun(["pass", "FAIL"], "    return a > b");
  const [result] = await runChecks([distractorsOneEdit]);
  assertEquals(result.ok, false);
  match(result.detail, /t\/1#m0: /);
});

async function writeQueries(): Promise<void> {
  await writeTable(
    "queries",
    withNulls(QUERIES, [{
      query_id: "t/1",
      task_id: "t/1",
      correct_ids: ["t/1#c"],
      distractor_ids: ["t/1#m0"],
    }]),
    QUERIES,
  );
}

/** The run's manifest, listing `files` (paths relative to out/) as the run's outputs. */
async function writeManifestListing(files: string[]): Promise<void> {
  const out = Deno.env.get("EXECRET_OUT")!;
  await Deno.writeTextFile(
    join(out, "manifest.json"),
    JSON.stringify({ files: files.map((path) => ({ path, sha256: "" })) }),
  );
}

Deno.test("a run whose configs are all sparse (no embedding file) passes the embeddings check", async () => {
  await writeRun(["pass", "FAIL"]);
  await writeQueries();
  await writeManifestListing(["tables/queries.arrow"]);
  const [result] = await runChecks([embeddingsHealthy]);
  assertEquals(result.ok, true, result.detail);
  match(result.detail, /no embedding files/);
});

Deno.test("the embeddings check reads the files the manifest lists, not what else is in the folder", async () => {
  await writeRun(["pass", "FAIL"]);
  await writeQueries();
  const out = Deno.env.get("EXECRET_OUT")!;
  // An earlier run's file, of another pool: not this run's, so not checked.
  await Deno.mkdir(join(out, "embeddings"));
  await Deno.writeTextFile(join(out, "embeddings", "use.arrow"), "an earlier run's file");
  await writeManifestListing(["tables/queries.arrow"]);
  assertEquals((await runChecks([embeddingsHealthy]))[0].ok, true);
  // Listed, the same file is this run's and fails.
  await writeManifestListing(["tables/queries.arrow", "embeddings/use.arrow"]);
  const [listed] = await runChecks([embeddingsHealthy]);
  assertEquals(listed.ok, false);
  match(listed.detail, /use\.arrow/);
});

Deno.test("without a manifest the embeddings check fails, naming the file", async () => {
  await writeRun(["pass", "FAIL"]);
  await writeQueries();
  const [result] = await runChecks([embeddingsHealthy]);
  assertEquals(result.ok, false);
  match(result.detail, /manifest\.json: no manifest/);
});
