import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { pythonSyntax, renameIdentifier } from "./python_syntax.ts";
import { compareIds } from "./task.ts";

const syntax = await pythonSyntax();

Deno.test("syntaxError locates the first error line; valid code, CRLF and tabs pass", () => {
  assertEquals(syntax.syntaxError("def f(x):\r\n\treturn x\r\n"), null);
  assertEquals(syntax.syntaxError(""), null);
  assertEquals(syntax.syntaxError("x = 1\ny = (\n"), "line 2");
  assertEquals(syntax.syntaxError("def f(x)\n    return x\n"), "line 1");
});

Deno.test("topLevelFunctions lists module-level and decorated functions only", () => {
  const code =
    "import functools\n\n@functools.cache\ndef fib(n):\n    def inner():\n        pass\n    return n\n\nclass A:\n    def m(self):\n        pass\n\ndef g():\n    pass\n";
  assertEquals(syntax.topLevelFunctions(code), ["fib", "g"]);
});

Deno.test("statementCount and calledNames see the module's statements and plain calls", () => {
  assertEquals(syntax.statementCount("assert f(1) == 1  # note"), 1);
  assertEquals(syntax.statementCount("x = f(1); assert x"), 2);
  assertEquals(
    [...syntax.calledNames("assert f(g(1), h.k(2)) == f(3)").entries()],
    [["f", 2], ["g", 1]],
  );
});

Deno.test("renameIdentifier renames identifiers, never strings, attributes or keywords", () => {
  const code =
    'assert candidate(1) == 2, "candidate: " + str(candidate) + obj.candidate + f(candidate=candidate)';
  const renamed = syntax.withTree(code, (root) => renameIdentifier(root, "candidate", "add"));
  assertEquals(
    renamed,
    'assert add(1) == 2, "candidate: " + str(add) + obj.candidate + f(candidate=add)',
  );
  // Offsets are UTF-16 indices: text with astral characters before the name still lines up.
  const emoji = 'assert candidate("😀é") == "😀"; candidate';
  assertEquals(
    syntax.withTree(emoji, (root) => renameIdentifier(root, "candidate", "f")),
    'assert f("😀é") == "😀"; f',
  );
});

Deno.test("compareIds orders numeric runs numerically", () => {
  const ids = ["HumanEval/10", "HumanEval/9", "HumanEval/100", "2", "10", "1", "t10", "t2", "a"];
  assertEquals([...ids].sort(compareIds), [
    "1",
    "2",
    "10",
    "HumanEval/9",
    "HumanEval/10",
    "HumanEval/100",
    "a",
    "t2",
    "t10",
  ]);
});

Deno.test("boundNames and eagerNames see what module-level code binds and reads when run", () => {
  assertEquals(
    syntax.boundNames(
      "import os.path, numpy as np\nfrom a.b import c, d as e\nx = y = 1\np, (q, r) = 1, (2, 3)\nn += 1\nclass K: pass\n@dec\ndef f(): pass\n",
    ),
    new Set(["os", "np", "c", "e", "x", "y", "p", "q", "r", "n", "K", "f"]),
  );
  assertEquals(syntax.boundNames("from m import *\n"), null);
  assertEquals(
    syntax.eagerNames(
      "root = Node(1)\nroot.left = Node(2)\ndef later(x=default):\n    return Node(x)\ng = lambda: Other()\nk(a=b)\n",
    ),
    ["root", "Node", "default", "g", "k", "b"],
  );
  // A function's own name and its parameters' names are bound, not read;
  // annotations and defaults are read when the def runs.
  assertEquals(
    syntax.eagerNames("def h(node: Ann = dflt, *rest: R, **kw) -> Ret:\n    return node\n"),
    ["dflt", "Ann", "R", "Ret"],
  );
});
