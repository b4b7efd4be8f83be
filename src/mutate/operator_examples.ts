/**
 * Every operator's worked examples, gathered from the registry: each entry in
 * `operators/` keeps its own beside its code. The unit tests check the engine
 * makes exactly these edits, and `data/MUTATION_OPERATORS.md` is generated
 * from them, so the reference cannot drift from the engine.
 *
 * @module
 */
import { type OperatorEntry, type OperatorExample } from "./operator_entry.ts";
import { OPERATORS } from "./operator_registry.ts";

/** Each worked example with the entry it belongs to, in registry order. */
export function operatorExamples(
  operators: readonly OperatorEntry[] = OPERATORS,
): { entry: OperatorEntry; example: OperatorExample }[] {
  return operators.flatMap((entry) => entry.examples.map((example) => ({ entry, example })));
}

/** Every worked example of the registry, in registry order. */
export const OPERATOR_EXAMPLES: readonly OperatorExample[] = operatorExamples().map((x) =>
  x.example
);
