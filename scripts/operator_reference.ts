/** Regenerate data/MUTATION_OPERATORS.md from the operators' worked examples. */
import { loadPythonParser } from "../src/common/python_parser.ts";
import { operatorReference } from "../src/mutate/operator_reference.ts";

const target = new URL("../data/MUTATION_OPERATORS.md", import.meta.url);
await Deno.writeTextFile(target, operatorReference(await loadPythonParser()));
console.log(`wrote ${target.pathname}`);
