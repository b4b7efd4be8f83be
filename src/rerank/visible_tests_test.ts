import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { docstringExamples, seededSplit, testSplit, visibleAndHidden } from "./visible_tests.ts";

Deno.test("docstringExamples: >>> lines and their outputs become asserts", () => {
  const query = [
    "Check if in given list of numbers, are any two numbers closer than threshold.",
    ">>> has_close_elements([1.0, 2.0, 3.0], 0.5)",
    "False",
    ">>> has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)",
    "True",
  ].join("\n");
  assertEquals(docstringExamples(query, "has_close_elements"), [
    "assert (has_close_elements([1.0, 2.0, 3.0], 0.5)) == (False)",
    "assert (has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)) == (True)",
  ]);
});

Deno.test("docstringExamples: strings, lists, continuations; non-values and other calls skipped", () => {
  const query = [
    "    >>> f('ab')",
    "    'ba'",
    "    >>> f(",
    "    ...   'xy')",
    "    ['x', 'y', None, -1.5e3]",
    "",
    "    >>> g(1)", // not the entry point
    "    2",
    "    >>> f(0)", // a traceback is not a value
    "    Traceback (most recent call last):",
    "    >>> f(1)", // printed text is not a value
    "    hello world",
    "    >>> f(2)", // no expected output
    "",
    "    >>> x.f(3)", // a method of another object
    "    3",
  ].join("\n");
  assertEquals(docstringExamples(query, "f"), [
    "assert (f('ab')) == ('ba')",
    "assert (f(\n'xy')) == (['x', 'y', None, -1.5e3])",
  ]);
  assertEquals(docstringExamples("no examples here", "f"), []);
});

Deno.test("docstringExamples: from a whole function, the closing quotes end the examples", () => {
  const code = [
    "def incr_list(l: list):",
    '    """Return list with elements incremented by 1.',
    "    >>> incr_list([1, 2, 3])",
    "    [2, 3, 4]",
    "    >>> incr_list([5])",
    '    [6]"""',
    "    return [(e + 1) for e in l]",
    "",
  ].join("\n");
  assertEquals(docstringExamples(code, "incr_list"), [
    "assert (incr_list([1, 2, 3])) == ([2, 3, 4])",
    "assert (incr_list([5])) == ([6])",
  ]);
  const closing = 'def f(x):\n    """\n    >>> f(1)\n    2\n    """\n    return x + 1\n';
  assertEquals(docstringExamples(closing, "f"), ["assert (f(1)) == (2)"]);
});

Deno.test("seededSplit: one visible, at least one held back, same on every call", () => {
  for (const n of [2, 3, 7, 20]) {
    const v = seededSplit("builtin/t", n, 20260510);
    assertEquals(v.length, n);
    assertEquals(v.filter((x) => x).length, 1);
    assertEquals(seededSplit("builtin/t", n, 20260510), v);
  }
  assertEquals(seededSplit("builtin/t", 1, 1), [false]); // one test: nothing can be visible
  assertEquals(seededSplit("builtin/t", 0, 1), []);
  assertEquals(seededSplit("builtin/t", 5, 1, 3).filter((x) => x).length, 3);
  assertEquals(seededSplit("builtin/t", 3, 1, 9).filter((x) => x).length, 2);
  // The seed and the task choose: over many tasks every index is picked sometimes.
  const picked = new Set<number>();
  for (let i = 0; i < 200; i++) picked.add(seededSplit(`t${i}`, 5, 7).indexOf(true));
  assertEquals([...picked].sort(), [0, 1, 2, 3, 4]);
  const other = Array.from({ length: 50 }, (_, i) => seededSplit(`t${i}`, 10, 8).indexOf(true));
  const same = Array.from({ length: 50 }, (_, i) => seededSplit(`t${i}`, 10, 7).indexOf(true));
  ok(other.some((x, i) => x !== same[i]), "another seed gives another split");
});

Deno.test("testSplit: HumanEval docstrings give visible examples, the rest a seeded split", () => {
  const rows = testSplit([
    {
      task_id: "mbpp/2",
      source: "mbpp",
      query: ">>> f(1)\n2",
      entry_point: "f",
      tests: ["assert f(1) == 2", "assert f(2) == 3", "assert f(3) == 4"],
    },
    {
      task_id: "humaneval/1",
      source: "humaneval",
      query: "Add one.",
      prompt: 'def f(x):\n    """Add one.\n    >>> f(1)\n    2\n    """\n    return x + 1\n',
      entry_point: "f",
      tests: ["def check(candidate): ...\n\ncheck(f)\n"],
    },
    {
      task_id: "humaneval/0",
      source: "humaneval",
      query: "No examples.",
      entry_point: "f",
      tests: ["assert f(1) == 2", "assert f(2) == 3"],
    },
  ], 20260510);
  assertEquals(rows.map((r) => r.task_id), [
    "humaneval/0",
    "humaneval/0",
    "humaneval/1",
    "humaneval/1",
    "mbpp/2",
    "mbpp/2",
    "mbpp/2",
  ]);
  const h1 = rows.filter((r) => r.task_id === "humaneval/1");
  assertEquals(h1.map((r) => [r.origin, r.visible, r.how]), [
    ["docstring", true, "docstring"],
    ["suite", false, "docstring"],
  ]);
  assertEquals(rows.filter((r) => r.task_id === "humaneval/0").map((r) => r.how), [
    "split",
    "split",
  ]);
  const byTask = visibleAndHidden(rows);
  assertEquals(byTask.get("humaneval/1")!.visible, ["assert (f(1)) == (2)"]);
  assertEquals(byTask.get("mbpp/2")!.visible.length, 1);
  assertEquals(byTask.get("mbpp/2")!.hidden.length, 2);
  for (const { visible, hidden } of byTask.values()) {
    ok(!visible.some((t) => hidden.includes(t)), "no test is both visible and hidden");
  }
});
