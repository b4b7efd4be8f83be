import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { loadPythonParser } from "../../src/common/python_parser.ts";
import { diffOneEdit } from "../../src/mutate/diff_one_edit.ts";
import { mutateCodeWith } from "../../src/mutate/mutate_code.ts";
import { mutateTasks } from "../../src/mutate/mutate_tasks.ts";
import { operatorReference } from "../../src/mutate/operator_reference.ts";
import { OPERATORS } from "../../src/mutate/operator_registry.ts";
import { verifyMutant } from "../../src/mutate/verify_mutant.ts";
import { wrongSignOperator } from "./operator_wrong_sign.ts";

const parser = await loadPythonParser();
const registry = [...OPERATORS, wrongSignOperator];
const canonical = "def distance(a, b):\n    d = a - b\n    if d < 0:\n        return -d\n" +
  "    return d if d != -1 else -1\n";

Deno.test("wrong_sign: plugged into the registry, the engine makes its one-edit mutant", () => {
  const { candidates } = mutateCodeWith(parser, canonical, {
    extensions: true,
    operators: registry,
  });
  const mine = candidates.filter((c) => c.bug_type === "wrong_sign");
  // One site: `-d`; the literal `-1` is wrong_constant's.
  assertEquals(mine.map(({ code: _, ...c }) => c), [{
    bug_type: "wrong_sign",
    operator: "drop_minus",
    extension: true,
    line: 4,
    column: 16,
    before: "        return -d",
    after: "        return d",
  }]);
  strictEqual(mine[0].code, canonical.replace("return -d", "return d"));
  assertEquals(diffOneEdit(canonical, mine[0].code, "wrong_sign"), {
    line: 4,
    before: "        return -d",
    after: "        return d",
    deleted: 0,
  });
  assertEquals(verifyMutant(parser, canonical, mine[0]), []);
  // The built-in registry alone has no such operator: the entry is what adds it.
  const without = mutateCodeWith(parser, canonical, { extensions: true }).candidates;
  ok(without.every((c) => c.bug_type !== "wrong_sign"));
});

Deno.test("wrong_sign: the mutate stage's task loop numbers it among the others", () => {
  const tasks = [{ task_id: "demo/1", source: "demo", canonical }];
  const { rows, summary } = mutateTasks(parser, tasks, {
    extensions: true,
    operators: registry,
    quiet: true,
  });
  const mine = rows.filter((r) => r.bug_type === "wrong_sign");
  strictEqual(mine.length, 1);
  strictEqual(mine[0].snippet_id, `demo/1#m${mine[0].order}`);
  strictEqual(summary.candidates_per_bug_type.wrong_sign, 1);
});

Deno.test("wrong_sign: the generated operator reference gains its section", () => {
  const reference = operatorReference(parser, registry);
  ok(reference.includes(
    "## `wrong_sign` (extension)\n\n" +
      "Extension: a unary minus left out (`-x` → `x`), never on a number literal.\n\n" +
      "| operator | before | after |\n|---|---|---|\n" +
      "| `drop_minus` | `return a * -b` | `return a * b` |\n",
  ));
});
