import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { BUG_TYPES } from "../tables/schema.ts";
import { DELETING_TYPES } from "./diff_one_edit.ts";
import { mutateCodeWith } from "./mutate_code.ts";
import { exampleCode, type OperatorEntry } from "./operator_entry.ts";
import {
  deletingBugTypes,
  extensionBugTypes,
  OPERATORS,
  paperBugTypes,
} from "./operator_registry.ts";
import { indexNodes } from "./operators/syntax.ts";
import { loadPythonParser } from "../common/python_parser.ts";

const parser = await loadPythonParser();

/** Canonicals to run every operator on: the examples, the tricky fixture, the built-in tasks. */
async function corpus(): Promise<string[]> {
  const tricky = await Deno.readTextFile(
    new URL("../../test/fixtures/mutate/tricky.py", import.meta.url),
  );
  const builtin = (await Deno.readTextFile(
    new URL("../../data/builtin_tasks.jsonl", import.meta.url),
  )).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l).canonical as string);
  return [...OPERATORS.flatMap((e) => e.examples.map(exampleCode)), tricky, ...builtin];
}

Deno.test("the registry's paper operators are the table schema's BUG_TYPES, in its order", () => {
  assertEquals(paperBugTypes(), [...BUG_TYPES]);
  const all = OPERATORS.map((e) => e.bug_type);
  strictEqual(new Set(all).size, all.length, "one entry per bug type");
  // The paper's six are applied first: registry order is application order.
  assertEquals(all, [...paperBugTypes(), ...extensionBugTypes()]);
});

Deno.test("the one-edit check's deleting types are the entries marked deletes", () => {
  assertEquals([...DELETING_TYPES].sort(), ["missing_statement", "remove_edge_case_check"]);
  assertEquals(DELETING_TYPES, deletingBugTypes());
});

Deno.test("every entry: its edits carry its bug type, its extension flag and a declared operator name", async () => {
  const seen = new Map<string, Set<string>>(OPERATORS.map((e) => [e.bug_type, new Set()]));
  for (const code of await corpus()) {
    const tree = parser.parse(code);
    try {
      const ctx = { code, nodes: indexNodes(tree) };
      for (const entry of OPERATORS) {
        for (const edit of entry.edits(ctx)) {
          strictEqual(edit.bug_type, entry.bug_type);
          strictEqual(edit.extension, entry.extension, `${entry.bug_type}/${edit.operator}`);
          ok(entry.operators.includes(edit.operator), `${entry.bug_type}: ${edit.operator}`);
          ok(!edit.deletion || entry.deletes, `${entry.bug_type} deletes but is not marked so`);
          seen.get(entry.bug_type)!.add(edit.operator);
        }
      }
    } finally {
      tree.delete();
    }
  }
  for (const entry of OPERATORS) {
    ok(seen.get(entry.bug_type)!.size > 0, `${entry.bug_type}: no edit on the corpus`);
    ok(entry.meaning.trim() !== "", `${entry.bug_type}: no meaning`);
    ok(entry.examples.length > 0, `${entry.bug_type}: no worked example`);
    for (const example of entry.examples) {
      ok(entry.operators.includes(example.operator), `${entry.bug_type}: ${example.operator}`);
    }
  }
});

Deno.test("an entry's nodeTypes are indexed for it: an operator on lambdas sees them only when it names them", () => {
  const entry = (nodeTypes?: string[]): OperatorEntry => ({
    bug_type: "lambda_to_none",
    extension: true,
    meaning: "A key function left out.",
    operators: ["lambda_to_none"],
    edits: (ctx) =>
      (ctx.nodes.get("lambda") ?? []).map((n) => ({
        bug_type: "lambda_to_none",
        operator: "lambda_to_none",
        extension: true,
        start: n.startIndex,
        end: n.endIndex,
        text: "None",
      })),
    examples: [],
    nodeTypes,
  });
  const code = "def f(xs):\n    return sorted(xs, key=lambda x: -x)\n";
  const afters = (e: OperatorEntry) =>
    mutateCodeWith(parser, code, { extensions: true, operators: [e] }).candidates.map((c) =>
      c.after
    );
  assertEquals(afters(entry()), []);
  assertEquals(afters(entry(["lambda"])), ["    return sorted(xs, key=None)"]);
});
