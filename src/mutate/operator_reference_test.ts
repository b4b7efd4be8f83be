import { strictEqual } from "node:assert/strict";
import { loadPythonParser } from "../common/python_parser.ts";
import { operatorReference } from "./operator_reference.ts";

Deno.test("data/MUTATION_OPERATORS.md is the reference the engine generates today", async () => {
  const committed = await Deno.readTextFile(
    new URL("../../data/MUTATION_OPERATORS.md", import.meta.url),
  );
  strictEqual(
    committed,
    operatorReference(await loadPythonParser()),
    "stale: run `deno run -A scripts/operator_reference.ts`",
  );
});
