import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRows } from "../io/arrow_table.ts";
import { FIXTURES } from "../../test/support/source_fixtures.ts";
import { SourceError } from "./external.ts";
import { buildTasks, summarize } from "./tasks_stage.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("buildTasks orders rows by source, then id with numbers compared numerically", async () => {
  const built = await buildTasks({
    sources: [
      "builtin",
      `jsonl:${FIXTURES}malformed/duplicate_id.jsonl`,
      `release:${FIXTURES}release/ok`,
    ],
    builtinPath: FIXTURES + "tasks_ok.jsonl",
    quiet: true,
  });
  assertEquals(built.labels, ["builtin", "jsonl:duplicate_id.jsonl", "release"]);
  assertEquals(built.rows.map((r) => [r.task_id, r.domain, r.domain_inferred]), [
    ["builtin/t1", "collections", false],
    ["builtin/t2", "bit_manipulation", true],
    ["builtin/t10", "date_time", true],
    ["jsonl:duplicate_id.jsonl/ok", "math_numerical", true],
    ["release/q1", "date_time", false],
    ["release/q2", "math_numerical", true],
    ["release/q3", "validation", false],
    ["release/q10", "sorting_searching", false],
  ]);
  assertEquals(built.rows[0].locator, FIXTURES + "tasks_ok.jsonl:5");
  assertEquals(built.rejects.map((r) => [r.source, r.reason.split(":")[0]]), [
    ["jsonl:duplicate_id.jsonl", "duplicate id"],
  ]);
  const result = summarize(built);
  assertEquals(result.bySource, { builtin: 3, "jsonl:duplicate_id.jsonl": 1, release: 4 });
  assertEquals(result.rejectsBySource, { builtin: 0, "jsonl:duplicate_id.jsonl": 1, release: 0 });
  assertEquals(result.byDomain.date_time, 2);
  assertEquals(result.inferred, 4);
  assertEquals(result.notes, { release: { released_distractors: 4, unreferenced_corpus_rows: 0 } });
  assertEquals(result.summary, "1 rejects (1 duplicate id)");
});

Deno.test("a source that cannot be read at all is a one-line source error", async () => {
  const cases: [string[], string][] = [
    [
      ["nope"],
      'unknown source "nope" (expected builtin, mbpp, humaneval, jsonl:<path> or release:<dir>)',
    ],
    [["jsonl:/no/such/file.jsonl"], "/no/such/file.jsonl: not found"],
    [["builtin", "builtin"], "source builtin is listed twice"],
    [
      [`jsonl:${FIXTURES}tasks_ok.jsonl`, `jsonl:${FIXTURES}malformed/../tasks_ok.jsonl`],
      `source jsonl:${FIXTURES}malformed/../tasks_ok.jsonl: another source already has the name jsonl:tasks_ok.jsonl`,
    ],
  ];
  for (const [sources, message] of cases) {
    await assertRejects(
      buildTasks({
        sources,
        quiet: true,
        builtinPath: FIXTURES + "tasks_ok.jsonl",
      }),
      (e: unknown) => e instanceof SourceError && e.message === message,
    );
  }
});

/** Run `execret tasks ...` in a fresh output folder; nothing touches the repo's out/. */
async function execretTasks(args: string[], out: string) {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--unstable-worker-options",
      "--cached-only",
      "src/cli/main.ts",
      "tasks",
      ...args,
    ],
    cwd: ROOT,
    env: { EXECRET_OUT: out, EXECRET_CACHE: join(out, "cache"), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await command.output();
  return {
    code,
    stdout: new TextDecoder().decode(stdout),
    stderr: new TextDecoder().decode(stderr),
  };
}

Deno.test("execret tasks writes tasks and rejects tables and prints counts as JSON", async () => {
  const out = await Deno.makeTempDir();
  try {
    const args = [
      "--source",
      `jsonl:${FIXTURES}tasks_ok.jsonl`,
      "--source",
      `jsonl:${FIXTURES}malformed/missing_tests.jsonl`,
      "--json",
      "--quiet",
    ];
    const run = await execretTasks(args, out);
    assertEquals([run.code, run.stderr], [0, ""]);
    const result = JSON.parse(run.stdout);
    assertEquals(result.bySource, { "jsonl:tasks_ok.jsonl": 3, "jsonl:missing_tests.jsonl": 1 });
    assertEquals(result.rejects, 1);
    assertEquals(result.summary, "1 rejects (1 missing field)");
    const tasks = await readRows<Record<string, unknown>>(join(out, "tables", "tasks.arrow"));
    assertEquals(tasks.map((t) => t.task_id), [
      "jsonl:tasks_ok.jsonl/t1",
      "jsonl:tasks_ok.jsonl/t2",
      "jsonl:tasks_ok.jsonl/t10",
      "jsonl:missing_tests.jsonl/ok",
    ]);
    assertEquals(tasks[1].extra_tests, ["assert popcount(2**64 - 1) == 64"]);
    assertEquals(tasks[1].tests, ["assert popcount(0) == 0", "assert popcount(255) == 8"]);
    const rejects = await readRows(join(out, "tables", "rejects.arrow"));
    assertEquals(rejects, [{
      stage: "tasks",
      source: "jsonl:missing_tests.jsonl",
      locator: `${FIXTURES}malformed/missing_tests.jsonl:2`,
      reason: "missing field: tests",
    }]);
    await Deno.stat(join(out, "parquet", "tasks.parquet"));
    // A rerun gives byte-identical tables.
    const before = await Deno.readFile(join(out, "tables", "tasks.arrow"));
    assertEquals((await execretTasks(args, out)).code, 0);
    assertEquals(await Deno.readFile(join(out, "tables", "tasks.arrow")), before);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("execret tasks prints an aligned table; --strict fails on rejects after writing", async () => {
  const out = await Deno.makeTempDir();
  try {
    const run = await execretTasks([
      "--source",
      `jsonl:${FIXTURES}malformed/duplicate_id.jsonl`,
      "--strict",
      "--quiet",
    ], out);
    assertEquals(run.code, 1);
    assertEquals(run.stderr, "execret tasks: strict: 1 rejects (1 duplicate id)\n");
    const lines = run.stdout.split("\n");
    assertEquals(lines[2], "domain               jsonl:duplicate_id.jsonl  total");
    assertEquals(lines[8], "math_numerical                              1      1");
    assertEquals(lines[13], "total                                       1      1");
    assertEquals(lines[14], "rejected                                    1      1");
    assertEquals(lines.includes("rejects: 1 rejects (1 duplicate id)"), true);
    assertEquals(
      lines.includes(
        `  ${FIXTURES}malformed/duplicate_id.jsonl:2: duplicate id: ok (first at ${FIXTURES}malformed/duplicate_id.jsonl:1)`,
      ),
      true,
    );
    await Deno.stat(join(out, "tables", "tasks.arrow")); // written all the same
    const missing = await execretTasks(["--source", "jsonl:/no/such.jsonl"], out);
    assertEquals([missing.code, missing.stderr], [1, "execret tasks: /no/such.jsonl: not found\n"]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
