import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { diffOneEdit } from "./diff_one_edit.ts";
import { verifyMutant } from "./verify_mutant.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { sha256Hex } from "../io/hash.ts";

const canonical = "def f(xs):\r\n    if not xs:\r\n        return 0\r\n    return xs[0] + 1\r\n";

Deno.test("diffOneEdit recovers one changed line, without its \\r", () => {
  const mutated = canonical.replace("+ 1", "- 1");
  assertEquals(diffOneEdit(canonical, mutated), {
    line: 4,
    before: "    return xs[0] + 1",
    after: "    return xs[0] - 1",
    deleted: 0,
  });
});

Deno.test("diffOneEdit accepts a deleted run of lines only for remove_edge_case_check", () => {
  const mutated = "def f(xs):\r\n    return xs[0] + 1\r\n";
  const expected = { line: 2, before: "    if not xs:\n        return 0", after: "", deleted: 2 };
  assertEquals(diffOneEdit(canonical, mutated, "remove_edge_case_check"), expected);
  assertEquals(diffOneEdit(canonical, mutated), expected);
  assertEquals(diffOneEdit(canonical, mutated, "wrong_operator"), null);
});

Deno.test("diffOneEdit is null for no change, two changed lines, or an added line", () => {
  assertEquals(diffOneEdit(canonical, canonical), null);
  assertEquals(diffOneEdit(canonical, canonical.replace("0\r", "1\r").replace("+ 1", "- 1")), null);
  assertEquals(
    diffOneEdit(canonical, canonical.replace("return 0", "return 0\r\n        pass")),
    null,
  );
  // A line-ending change alone is no edit.
  assertEquals(diffOneEdit(canonical, canonical.replaceAll("\r\n", "\n")), null);
});

Deno.test("verifyMutant accepts a sound row and names each tampering", async () => {
  const parser = await loadPythonParser();
  const code = canonical.replace("+ 1", "- 1");
  const row = {
    bug_type: "wrong_operator",
    line: 4,
    before: "    return xs[0] + 1",
    after: "    return xs[0] - 1",
    code,
    code_sha256: sha256Hex(code),
  };
  assertEquals(verifyMutant(parser, canonical, row), []);
  assertEquals(verifyMutant(parser, canonical, { ...row, line: 3 }), [
    "edit is on line 4, recorded 3",
  ]);
  assertEquals(verifyMutant(parser, canonical, { ...row, code_sha256: "0" }), [
    "code_sha256 does not match the code",
  ]);
  const broken = canonical.replace("+ 1", "+");
  assertEquals(
    verifyMutant(parser, canonical, {
      ...row,
      code: broken,
      after: "    return xs[0] +",
      code_sha256: undefined,
    }),
    [
      "code does not parse",
    ],
  );
  // Deleting the only statement of a block: tree-sitter still parses it, the check does not pass it.
  const half = "def f(xs):\r\n    if not xs:\r\n    return xs[0] + 1\r\n";
  assertEquals(
    verifyMutant(parser, canonical, {
      bug_type: "remove_edge_case_check",
      line: 3,
      before: "        return 0",
      after: "",
      code: half,
    }),
    ["deleted lines 3-3 were the only statement of their block"],
  );
  // Deleting half of a statement.
  assertEquals(
    verifyMutant(parser, canonical, {
      bug_type: "remove_edge_case_check",
      line: 2,
      before: "    if not xs:",
      after: "",
      code: "def f(xs):\r\n        return 0\r\n    return xs[0] + 1\r\n",
    }),
    ["deleted lines 2-2 are not one statement"],
  );
  const whole = "def f(xs):\r\n    return xs[0] + 1\r\n";
  assertEquals(
    verifyMutant(parser, canonical, {
      bug_type: "remove_edge_case_check",
      line: 2,
      before: "    if not xs:\n        return 0",
      after: "",
      code: whole,
    }),
    [],
  );
});
