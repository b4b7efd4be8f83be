import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { fixtureLabel, FIXTURES } from "../../test/support/source_fixtures.ts";
import { SourceError } from "./external.ts";
import { pythonSyntax } from "./python_syntax.ts";
import { domainOfEntry, readRelease, readReleaseDistractors } from "./release_tasks.ts";

const syntax = await pythonSyntax();

Deno.test("a release's queries become tasks with the correct row's code and the tests", async () => {
  const { tasks, rejects } = await readRelease(FIXTURES + "release/ok", syntax);
  assertEquals(rejects, []);
  assertEquals(
    tasks.map((t) => [t.task_id, t.source, t.domain, t.entry_point, t.tests.length]),
    [
      ["release/q1", "release", "date_time", "days_in_month", 4], // "Date/Time" normalised
      ["release/q2", "release", null, "clamp", 3], // no domain: inferred later; entry derived
      ["release/q10", "release", "sorting_searching", "last_index", 1], // kept whole
      ["release/q3", "release", "validation", "is_hex_color", 3],
    ],
  );
  const q2 = tasks[1];
  assertEquals(q2.canonical, "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n");
  assertEquals(q2.tests, [
    "assert clamp(5, 0, 10) == 5",
    "assert clamp(-1, 0, 10) == 0",
    "assert clamp(11, 0, 10) == 10",
  ]);
  assertEquals(tasks[2].tests[0].startsWith("items = [1, 2, 1]\n"), true);
  assertEquals(q2.locator, `${FIXTURES}release/ok/queries.jsonl:2`);
});

Deno.test("readReleaseDistractors returns the released distractors of kept queries", async () => {
  assertEquals(
    (await readReleaseDistractors(FIXTURES + "release/ok")).map((d) => [
      d.task_id,
      d.corpus_id,
      d.bug_type,
      d.code.split("\n")[1],
    ]),
    [
      ["release/q1", "c1-d1", "remove_edge_case_check", "    if month == 2:"],
      ["release/q1", "c1-d2", "wrong_comparison", "    if month != 2:"],
      ["release/q2", "c2-d1", "swap_arguments", "    return max(hi, min(x, lo))"],
      [
        "release/q10",
        "c10-d1",
        "off_by_one_boundary",
        "    for i in range(len(items) - 1, 0, -1):",
      ],
    ],
  );
});

Deno.test("a release folder may keep its files under data/", async () => {
  const { tasks, distractors } = await readRelease(FIXTURES + "release/nested", syntax);
  assertEquals(tasks.map((t) => t.task_id), ["release/q2"]);
  assertEquals(distractors.map((d) => d.corpus_id), ["c2-d1"]);
});

Deno.test("a folder without the release files is a one-line source error", async () => {
  await assertRejects(
    readRelease(FIXTURES + "malformed", syntax),
    (e: unknown) =>
      e instanceof SourceError &&
      e.message ===
        `${FIXTURES}malformed: no queries.jsonl + corpus.jsonl (nor data/queries.jsonl + data/corpus.jsonl)`,
  );
});

Deno.test("inconsistent release rows become rejects with clear reasons", async () => {
  const dir = fixtureLabel("release/bad");
  const { tasks, rejects, distractors } = await readRelease(dir, syntax);
  // qa lost a distractor that is not in the corpus. A label or batch that
  // disagrees with the query (qc, qe, qh's distractor) is the bundle reader's
  // finding, not a reason to drop the task: the query's lists say what is correct.
  assertEquals(tasks.map((t) => t.task_id), [
    "release/qa",
    "release/qc",
    "release/qe",
    "release/qh",
  ]);
  assertEquals(distractors.map((d) => [d.task_id, d.corpus_id]), [
    ["release/qa", "a-d"],
    ["release/qh", "h-x"],
  ]);
  const c = `${dir}/corpus.jsonl`;
  const q = `${dir}/queries.jsonl`;
  assertEquals(
    rejects.map((r) => [r.stage, r.source]).every(([s, src]) => s === "tasks" && src === "release"),
    true,
  );
  assertEquals(rejects.map((r) => [r.locator, r.reason]), [
    [`${c}:4`, `duplicate id: corpus_id b (first at ${c}:3)`],
    [`${c}:7`, "malformed JSON: unexpected end of line at column 28"],
    [`${c}:8`, "missing field: code"],
    [`${c}:9`, 'wrong value: label must be "correct" or "incorrect", got "right"'],
    [`${c}:12`, "missing field: bug_type (required on incorrect rows)"],
    [`${q}:1`, "missing corpus row: distractor id missing-d is not in the corpus"],
    [`${q}:2`, "ambiguous corpus id: correct id b is duplicated in corpus"],
    [`${q}:4`, "missing corpus row: correct id nope is not in the corpus"],
    [`${q}:6`, `duplicate id: query_id qa (first at ${q}:1)`],
    [`${q}:7`, 'unknown domain: "cooking"'],
    [`${q}:8`, "missing field: test_suite"],
    [`${q}:10`, "empty field: test_suite"],
    [`${q}:11`, "malformed JSON: unexpected input at column 20"],
    [`${q}:12`, "empty field: correct_corpus_ids"],
    [`${q}:13`, "no entry point: the tests call no function the code defines"],
  ]);
});

Deno.test("a release query's domain comes from its exec_<domain>_<n> batch id", () => {
  assertEquals(domainOfEntry("exec_string_processing_5"), "string_processing");
  assertEquals(domainOfEntry("exec_date_time_12"), "date_time");
  assertEquals(domainOfEntry("e2"), null);
  assertEquals(domainOfEntry(7), null);
});
