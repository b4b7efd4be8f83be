import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { mutateCodeWith } from "../mutate/mutate_code.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { compareMutants, summarizeMutants, trimTrailing } from "./compare_mutants.ts";

const CANONICAL = `def clip(xs, hi):
    out = []
    for x in xs:
        if x < hi:
            out.append(x)
    return out
`;

Deno.test("released distractors are looked up among the engine's candidates", async () => {
  const parser = await loadPythonParser();
  const engine = mutateCodeWith(parser, CANONICAL).candidates;
  const lt = engine.find((c) => c.after.includes("x <= hi"));
  ok(lt, "the engine turns < into <=");
  const canonicals = new Map([["release/q1", CANONICAL]]);
  const rows = compareMutants(parser, canonicals, [
    { task_id: "release/q1", corpus_id: "d1", code: lt.code, bug_type: lt.bug_type },
    // The same edit with trailing spaces and an extra final newline.
    {
      task_id: "release/q1",
      corpus_id: "d2",
      code: lt.code.replace("x <= hi:", "x <= hi:   ") + "\n",
      bug_type: "off_by_one",
    },
    // An edit no single-edit operator makes.
    {
      task_id: "release/q1",
      corpus_id: "d3",
      code: CANONICAL.replace("out = []", "out = [0]"),
      bug_type: "wrong_operator",
    },
  ]);
  assertEquals(rows.map((r) => [r.corpus_id, r.reproduced, r.engine_bug_type, r.same_bug_type]), [
    ["d1", "exact", lt.bug_type, true],
    ["d2", "trailing_whitespace", lt.bug_type, lt.bug_type === "off_by_one"],
    ["d3", "no", null, null],
  ]);
  ok(rows.every((r) => r.candidates === engine.length));
  assertEquals(summarizeMutants(rows).find((s) => s.bug_type === "wrong_operator"), {
    bug_type: "wrong_operator",
    released: 1,
    exact: 0,
    trailing_whitespace: 0,
    same_bug_type: 0,
  });
});

Deno.test("trimTrailing drops line-final whitespace and final newlines only", () => {
  assertEquals(trimTrailing("a  \n  b\t\n\n"), "a\n  b");
});
