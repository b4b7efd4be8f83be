import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readFixture } from "../../test/support/source_fixtures.ts";
import { cleanDocstring, humanEvalTasks, humanEvalTests } from "./humaneval.ts";
import { jsonlLines } from "../io/jsonl_lines.ts";
import { pythonSyntax } from "./python_syntax.ts";

const syntax = await pythonSyntax();

async function read() {
  const records = jsonlLines(await readFixture("humaneval_small.jsonl")).map((l) => ({
    line: l.line,
    value: l.value as Record<string, unknown>,
  }));
  return humanEvalTasks(records, "HumanEval.jsonl.gz", syntax);
}

Deno.test("a flat check(candidate) is split into asserts bound to the entry point", async () => {
  const { tasks } = await read();
  const task = tasks[0];
  assertEquals(task.task_id, "humaneval/0");
  assertEquals(task.source_id, "HumanEval/0");
  assertEquals(task.tests, [
    // The string's "candidate" words stay; only the identifiers are renamed.
    'assert add_all([1, 2]) == 3, "candidate failed: candidate([1, 2])"',
    "assert add_all([]) == 0",
    // Keyword and attribute names that happen to be "candidate" stay too.
    "assert types.SimpleNamespace(candidate=add_all).candidate([5]) == 5",
    "assert add_all(\n        [10, -10]\n    ) == 0",
  ]);
  assertEquals(
    task.setup,
    "METADATA = {\n    'author': 'jt',\n    'dataset': 'test'\n}\nimport types\n",
  );
});

Deno.test("canonical is prompt + solution; the query is the docstring without doctests", async () => {
  const { tasks } = await read();
  const task = tasks[0];
  assertEquals(task.canonical.startsWith("from typing import List\n\n\ndef add_all("), true);
  assertEquals(task.canonical.endsWith('    """\n    return sum(numbers)\n'), true);
  assertEquals(task.query, "Return the sum of the numbers; 0 for an empty list.");
  assertEquals(task.entry_point, "add_all");
  // The docstring may follow an import (HumanEval/115); the "For example:" header goes
  // with its examples.
  assertEquals(
    tasks.find((t) => t.source_id === "HumanEval/4")!.query,
    "Count the even numbers in a grid.",
  );
});

Deno.test("a check with loops or top-level helpers is kept whole, called on the entry point", async () => {
  const { tasks, notes } = await read();
  const loop = tasks.find((t) => t.source_id === "HumanEval/1")!;
  assertEquals(loop.tests, [
    "def check(candidate):\n    for x in range(5):\n        assert candidate(x) == x + x\n\n\ncheck(double)\n",
  ]);
  assertEquals(loop.setup, "");
  assertEquals(loop.query, "Return twice x.");
  const helper = tasks.find((t) => t.source_id === "HumanEval/2")!;
  assertEquals(helper.tests.length, 1);
  assertEquals(helper.tests[0].endsWith("\n\n\ncheck(triple)\n"), true);
  assertEquals(notes, { tests_split: 2, tests_whole: 2 });
});

Deno.test("an entry point without a docstring is a reject", async () => {
  const { tasks, rejects } = await read();
  assertEquals(tasks.map((t) => t.source_id), [
    "HumanEval/0",
    "HumanEval/1",
    "HumanEval/2",
    "HumanEval/4",
  ]);
  assertEquals(rejects, [{
    stage: "tasks",
    source: "humaneval",
    locator: "HumanEval.jsonl.gz:4",
    reason: "no docstring: the entry point nodoc has no docstring to use as the query",
  }]);
});

Deno.test("humanEvalTests keeps a check with a non-assert statement whole", () => {
  const form = humanEvalTests(
    "def check(candidate):\n    print\n    assert candidate(1) == 1\n",
    "f",
    syntax,
  );
  assertEquals(form.split, false);
  assertEquals(form.tests, [
    "def check(candidate):\n    print\n    assert candidate(1) == 1\n\n\ncheck(f)\n",
  ]);
});

Deno.test("cleanDocstring dedents and drops doctest examples but keeps prose", () => {
  assertEquals(
    cleanDocstring(
      " Sort the list.\n    Ties keep their order.\n\n    >>> f([2, 1])\n    [1, 2]\n    >>> f([])\n    []\n    ",
    ),
    "Sort the list.\nTies keep their order.",
  );
  assertEquals(
    cleanDocstring("\n    Explain.\n\n    Example:\n        f(1) ==> 2\n    "),
    "Explain.\n\nExample:\n    f(1) ==> 2",
  );
});
