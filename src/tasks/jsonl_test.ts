import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fixtureLabel, readFixture } from "../../test/support/source_fixtures.ts";
import { readTaskJsonl } from "./jsonl.ts";
import { jsonlLines } from "../io/jsonl_lines.ts";
import { pythonSyntax } from "./python_syntax.ts";

const syntax = await pythonSyntax();

async function read(name: string, source = "jsonl:test") {
  return readTaskJsonl(await readFixture(name), fixtureLabel(name), source, syntax);
}

Deno.test("jsonlLines handles CRLF, blank lines, a BOM and no final newline", () => {
  const bytes = new TextEncoder().encode('\ufeff{"a":1}\r\n\r\n  \n[2]\r\n"x"');
  assertEquals(jsonlLines(bytes), [
    { line: 1, value: { a: 1 } },
    { line: 4, value: [2] },
    { line: 5, value: "x" },
  ]);
});

Deno.test("readTaskJsonl reads valid tasks with CRLF and blank lines, keeping file order", async () => {
  const { tasks, rejects } = await read("tasks_ok.jsonl", "jsonl:tasks_ok.jsonl");
  assertEquals(rejects, []);
  assertEquals(tasks.map((t) => [t.task_id, t.locator]), [
    ["jsonl:tasks_ok.jsonl/t10", "test/fixtures/sources/tasks_ok.jsonl:1"],
    ["jsonl:tasks_ok.jsonl/t2", "test/fixtures/sources/tasks_ok.jsonl:3"],
    ["jsonl:tasks_ok.jsonl/t1", "test/fixtures/sources/tasks_ok.jsonl:5"],
  ]);
  const [leap, popcount, reverse] = tasks;
  assertEquals(leap.domain, null);
  assertEquals(leap.setup, "");
  assertEquals(leap.extra_tests, []);
  assertEquals(popcount.canonical.includes("\twhile n:"), true); // tabs kept
  assertEquals(popcount.query, "Count the set bits of a non-negative integer — popcount.");
  assertEquals(popcount.extra_tests, ["assert popcount(2**64 - 1) == 64"]);
  assertEquals(reverse.domain, "collections");
  assertEquals(reverse.setup, "DATA = [1, 2, 3]\n");
  assertEquals(reverse.source_id, "t1");
});

/**
 * Each malformed fixture holds a valid task on line 1 and one bad line (line
 * 2): the valid one must survive and the bad one become exactly this reject.
 */
const MALFORMED: [file: string, reason: string][] = [
  ["malformed_json", "malformed JSON: unexpected end of line at column 49"],
  ["bad_json_token", "malformed JSON: unexpected input at column 2"],
  ["invalid_utf8", "invalid UTF-8"],
  ["not_object", "not an object: the line holds an array"],
  ["unknown_field", "unknown field: test"],
  ["missing_tests", "missing field: tests"],
  ["missing_canonical", "missing field: canonical"],
  ["null_field", "missing field: entry_point"],
  ["tests_not_list", "wrong type: tests must be an array of strings, got string"],
  [
    "tests_number_item",
    "wrong type: tests must be an array of strings, got an array holding number",
  ],
  ["query_not_string", "wrong type: query must be a string, got number"],
  ["empty_tests", "empty field: tests"],
  ["empty_query", "empty field: query"],
  ["bad_id", `bad id: "bad id" holds whitespace or '#'`],
  ["unknown_domain", 'unknown domain: "strings"'],
  ["canonical_syntax_error", "does not parse: canonical, line 1"],
  ["setup_syntax_error", "does not parse: setup, line 1"],
  ["test_syntax_error", "does not parse: tests[1], line 1"],
  ["extra_test_syntax_error", "does not parse: extra_tests[0], line 1"],
  ["blank_test", "empty test: tests[1]"],
  ["two_statements", "not one statement: tests[0] has 2 statements"],
  [
    "entry_point_undefined",
    "entry point not defined: the canonical defines no top-level function plus",
  ],
  [
    "entry_point_nested",
    "entry point not defined: the canonical defines no top-level function inner",
  ],
  [
    "canonical_needs_setup",
    "canonical needs the setup: it uses traced, which only the setup defines " +
    "(setup runs after the canonical)",
  ],
  ["duplicate_id", "duplicate id: ok (first at test/fixtures/sources/malformed/ok_line_1)"],
];

for (const [name, reason] of MALFORMED) {
  Deno.test(`malformed fixture ${name}.jsonl is one reject with its reason and locator`, async () => {
    const file = `malformed/${name}.jsonl`;
    const { tasks, rejects } = await read(file);
    assertEquals(tasks.map((t) => t.source_id), ["ok"]);
    const expected = reason.replace(
      "test/fixtures/sources/malformed/ok_line_1",
      `${fixtureLabel(file)}:1`,
    );
    assertEquals(rejects, [{
      stage: "tasks",
      source: "jsonl:test",
      locator: `${fixtureLabel(file)}:2`,
      reason: expected,
    }]);
  });
}

Deno.test("there are at least 15 malformed-input fixtures, each tested", async () => {
  const files: string[] = [];
  for await (
    const entry of Deno.readDir(new URL("../../test/fixtures/sources/malformed/", import.meta.url))
  ) {
    files.push(entry.name.replace(/\.jsonl$/, ""));
  }
  assertEquals(files.sort(), MALFORMED.map(([f]) => f).sort());
  assertEquals(files.length >= 15, true);
});
