import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { snippetOutcomes } from "./snippet_outcomes.ts";
import { suiteCodeSha, testsSha } from "../oracle/cache.ts";

Deno.test("snippetOutcomes joins executions through setup + code and the task's tests", () => {
  const tests = ["assert f(1) == 1", "assert f(2) == 2"];
  const tasks = [{ task_id: "t", setup: "import math", tests }];
  const corpus = [
    { corpus_id: "t#c", task_id: "t", code: "def f(x): return x" },
    { corpus_id: "t#m0", task_id: "t", code: "def f(x): return 1" },
  ];
  const key = (code: string) => ({
    code_sha256: suiteCodeSha("import math", code),
    tests_sha256: testsSha(tests),
  });
  const executions = [
    { ...key(corpus[1].code), test_index: 1, outcome: "FAIL", ms: 2 },
    { ...key(corpus[1].code), test_index: 0, outcome: "pass", ms: 1 },
    { ...key(corpus[0].code), test_index: 0, outcome: "pass", ms: 1 },
    // A repeated suite (another runtime) does not double the outcomes.
    { ...key(corpus[0].code), test_index: 0, outcome: "pass", ms: 3 },
    // Same code under other tests, or without the setup: not this task's suite.
    {
      code_sha256: key(corpus[0].code).code_sha256,
      tests_sha256: testsSha([]),
      test_index: 0,
      outcome: "FAIL",
      ms: 1,
    },
    {
      code_sha256: suiteCodeSha("", corpus[0].code),
      tests_sha256: testsSha(tests),
      test_index: 1,
      outcome: "FAIL",
      ms: 1,
    },
  ];
  // The rows carry their timings too, so they serve as the execution_times table.
  assertEquals(snippetOutcomes(tasks, corpus, executions, executions), [
    { corpus_id: "t#c", test_index: 0, outcome: "pass", ms: 1 },
    { corpus_id: "t#m0", test_index: 0, outcome: "pass", ms: 1 },
    { corpus_id: "t#m0", test_index: 1, outcome: "FAIL", ms: 2 },
  ]);
  // Without timings the outcomes stand alone.
  assertEquals(snippetOutcomes(tasks, corpus, executions).map((o) => o.ms), [null, null, null]);
});
