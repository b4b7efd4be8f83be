import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { readRows, readTableRows } from "../io/arrow_table.ts";
import { CORPUS, EXECUTIONS, QUERIES, REJECTS, TASKS } from "../tables/schema.ts";
import { createPool } from "../oracle/pool.ts";
import { importReleaseCommand } from "../cli/commands/import_release.ts";
import { UserError } from "../io/user_error.ts";
import { detectTestsRule } from "./cache_keys.ts";
import { importRelease, releaseTablePath } from "./import_release.ts";
import { readBundle } from "./read_bundle.ts";
import { reexecute, reexecutionRows } from "./reexecute.ts";
import { brokenBundle, editLines, FIXTURE_BUNDLE } from "./_test_bundle.ts";

/** Run `body` with EXECRET_OUT pointing at a fresh temporary folder. */
async function withOut(body: (out: string) => Promise<void>): Promise<void> {
  const out = await Deno.makeTempDir({ prefix: "execret-out-" });
  const previous = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", out);
  try {
    await body(out);
  } finally {
    if (previous === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", previous);
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test("import-release loads the fixture as the kit's tables, apart from the default run", async () => {
  await withOut(async (out) => {
    const r = await importRelease(FIXTURE_BUNDLE, { reexecute: false, quiet: true });
    assertEquals(r.summary.mismatched, 0);
    ok(r.summary.matched > 684, "numbers plus cache checks");
    assertEquals(r.tablesDir, join(out, "release", "tables"));
    const tasks = await readTableRows(releaseTablePath("tasks"), TASKS);
    assertEquals(tasks.map((t) => t.task_id), [1, 2, 3, 4, 5, 6].map((i) => `release/q000${i}`));
    assertEquals(tasks[2].tests.length, 5);
    const queries = await readTableRows(releaseTablePath("queries"), QUERIES);
    assertEquals(queries[0], {
      ...queries[0],
      query_id: "release/q0001",
      correct_ids: ["c0001"],
      distractor_ids: ["c0002", "c0003", "c0004"],
    });
    const corpus = await readTableRows(releaseTablePath("corpus"), CORPUS);
    assertEquals(corpus.length, 29);
    const c12 = corpus.find((c) => c.corpus_id === "c0012")!; // q0003's off_by_one: loops forever
    assertEquals([c12.task_id, c12.bug_type, c12.timeout_only, c12.line], [
      "release/q0003",
      "off_by_one",
      true,
      8,
    ]);
    assertEquals(corpus.find((c) => c.corpus_id === "c0010")!.bug_type, null);
    const rankings = await readRows(releaseTablePath("rankings"));
    assertEquals(rankings.length, 3 * 6 * 10);
    const executions = await readTableRows(releaseTablePath("executions"), EXECUTIONS);
    ok(executions.every((e) => !e.outcome.startsWith("FAIL:")));
    const mutations = await readRows(releaseTablePath("audit_mutations"));
    assertEquals(mutations.length, 23);
    // A later import without the mutation comparison drops the earlier comparison's table.
    await importRelease(FIXTURE_BUNDLE, { reexecute: false, mutate: false, quiet: true });
    await rejects(Deno.stat(releaseTablePath("audit_mutations")), Deno.errors.NotFound);
    // The library call writes only under out/release: the default run's tables are untouched.
    const names = [];
    for await (const e of Deno.readDir(out)) names.push(e.name);
    assertEquals(names, ["release"]);
  });
});

Deno.test("re-execution in the sandbox agrees with the released cache, and finds a doctored entry", async () => {
  // Three released TIMEOUTs (loops) wait out the timeout each: half a second
  // is still ample for the fixture's other tests, which take milliseconds.
  const pool = await createPool({ runtime: "pyodide", workers: 1, timeoutMs: 500 });
  const dir = await brokenBundle((d) =>
    // Claim that q0001's off_by_one_boundary distractor (c0003) passes its first test.
    editLines(join(d, "data/execution_cache.jsonl"), (lines) =>
      lines.map((l) =>
        l.includes('["FAIL", "pass", "FAIL:both ends", "pass"]')
          ? l.replace(
            '["FAIL", "pass", "FAIL:both ends", "pass"]',
            '["pass", "pass", "FAIL:both ends", "pass"]',
          )
          : l
      ))
  );
  try {
    const good = await readBundle(FIXTURE_BUNDLE);
    const rows = await reexecute(good, detectTestsRule(good).rule, pool);
    assertEquals(rows.length, 4 * 4 + 5 * 4 + 5 * 5 + 5 * 5 + 5 * 4 + 5 * 4); // snippets × tests per query
    assertEquals(rows.filter((r) => !r.match), []);
    ok(rows.some((r) => r.released === "TIMEOUT" && r.recomputed === "TIMEOUT"));
    ok(rows.some((r) => r.released === "FAIL:pairs" && r.recomputed === "FAIL"));
    ok(rows.some((r) => r.recomputed === "ERROR:IndexError"));

    const doctored = await readBundle(dir);
    const rerun = await reexecute(
      doctored,
      detectTestsRule(doctored).rule,
      pool,
      undefined,
      new Set(["q0001", "q0002"]),
    );
    assertEquals(rerun.length, 4 * 4 + 5 * 4);
    const bad = rerun.filter((r) => !r.match);
    assertEquals(
      bad.map((r) => [r.query_id, r.corpus_id, r.test_index, r.released, r.recomputed]),
      [
        ["q0001", "c0003", 0, "pass", "FAIL"],
      ],
    );
    const summary = reexecutionRows(bad, pool.runtime, "x");
    assertEquals(summary.map((s) => s.match), [false, false]);
  } finally {
    pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the CLI stops on a broken bundle with one line and records the problems", async () => {
  await withOut(async (out) => {
    const dir = await brokenBundle((d) =>
      editLines(
        join(d, "data/corpus.jsonl"),
        (lines) => [...lines.slice(0, 4), "{not json", ...lines.slice(4)],
      )
    );
    try {
      await rejects(
        importReleaseCommand.run([dir, "--quiet"]),
        (e) =>
          e instanceof UserError && !e.message.includes("\n") &&
          e.message.startsWith(`${join(dir, "data/corpus.jsonl")}:5: malformed JSON`),
      );
      const rejectRows = await readTableRows(join(out, "tables", "rejects_import.arrow"), REJECTS);
      ok(rejectRows.length >= 1 && rejectRows.every((r) => r.stage === "import"));
      assertEquals(rejectRows[0].locator, `${join(dir, "data/corpus.jsonl")}:5`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("the CLI exits 1 when a released number does not match", async () => {
  await withOut(async () => {
    const dir = await brokenBundle(async (d) => {
      const path = join(d, "tests/pairwise_tests.json");
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(
        path,
        text.replace('"mcnemar_exact_p": 0.625', '"mcnemar_exact_p": 0.0625'),
      );
    });
    const log = console.log;
    const printed: string[] = [];
    console.log = (s: string) => printed.push(s);
    try {
      assertEquals(await importReleaseCommand.run([dir, "--no-exec", "--no-mutate", "--quiet"]), 1);
    } finally {
      console.log = log;
      await Deno.remove(dir, { recursive: true });
    }
    const text = printed.join("\n");
    ok(/numbers checked, \d+ matched, 1 mismatched/.test(text), text);
    ok(
      text.includes(
        '"acme-embed-small vs nimbus-code-v2", "exec@1".mcnemar_exact_p: released 0.0625',
      ),
      text,
    );
  });
});

Deno.test("a query the release task reader rejects is reported, and the audit still runs", async () => {
  await withOut(async (out) => {
    const dir = await brokenBundle((d) =>
      editLines(join(d, "data/queries.jsonl"), (lines) => {
        lines[1] = lines[1].replace('"domain": "data_transformation"', '"domain": "astrology"');
        return lines;
      })
    );
    const log = console.log;
    const printed: string[] = [];
    console.log = (s: string) => printed.push(s);
    try {
      assertEquals(await importReleaseCommand.run([dir, "--no-exec", "--no-mutate", "--quiet"]), 1);
    } finally {
      console.log = log;
    }
    const text = printed.join("\n");
    ok(/audit: \d+ numbers checked, \d+ matched, 1 mismatched/.test(text), text);
    ok(text.includes(`${join(dir, "data/queries.jsonl")}:2: unknown domain: "astrology"`), text);
    const tasks = await readTableRows(releaseTablePath("tasks"), TASKS);
    assertEquals(tasks.length, 5);
    const rejectRows = await readTableRows(join(out, "tables", "rejects_import.arrow"), REJECTS);
    assertEquals(rejectRows.map((r) => [r.stage, r.locator]), [[
      "import",
      `${join(dir, "data/queries.jsonl")}:2`,
    ]]);
    await Deno.remove(dir, { recursive: true });
  });
});
