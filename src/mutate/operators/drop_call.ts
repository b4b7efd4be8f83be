import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import {
  calleeName,
  importedNames,
  methodName,
  positionalArgs,
  replaceNode,
  shadowed,
  textOf,
} from "./syntax.ts";

/** One-argument conversions a slip leaves out: `int(x)` → `x`, `sorted(xs)` → `xs`. */
const WRAPPERS = new Set([
  "abs",
  "bool",
  "float",
  "int",
  "list",
  "reversed",
  "round",
  "set",
  "sorted",
  "str",
  "tuple",
]);

/** Argument-less methods a slip leaves out: `s.lower()` → `s`. */
const DROPPABLE_METHODS = new Set(["lower", "upper", "strip", "lstrip", "rstrip", "split"]);

/**
 * `drop_call` (extension): a conversion left out (`int(x)` → `x`,
 * `sorted(xs)` → `xs`, `s.strip()` → `s`).
 */
export function dropCallEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  const imported = importedNames(ctx);
  for (const call of nodes.get("call") ?? []) {
    const fn = call.childForFieldName("function");
    const args = positionalArgs(call);
    const callee = calleeName(code, call);
    if (callee && WRAPPERS.has(callee) && args?.length === 1 && argumentTotal(call) === 1) {
      if (!shadowed(code, callee, imported)) {
        out.push(edit(`drop_${callee}`, call, wrapped(code, call, args[0])));
      }
    }
    const method = methodName(code, call);
    if (method && DROPPABLE_METHODS.has(method) && argumentTotal(call) === 0) {
      out.push(edit(`drop_${method}`, call, textOf(code, fn!.childForFieldName("object")!)));
    }
  }
  return out;
}

function edit(operator: string, node: Node, text: string): ProposedEdit {
  return replaceNode("drop_call", operator, true, node, text);
}

/** Number of arguments of any kind. */
function argumentTotal(call: Node): number {
  const args = call.childForFieldName("arguments");
  return args ? args.namedChildren.filter((a) => a && a.type !== "comment").length : 0;
}

/** Expressions that need no parentheses wherever a call stood. */
const ATOMS = new Set([
  "attribute",
  "call",
  "dictionary",
  "float",
  "identifier",
  "integer",
  "list",
  "list_comprehension",
  "parenthesized_expression",
  "set",
  "string",
  "subscript",
  "tuple",
]);

/** The argument's text, parenthesised unless it is an atom (`int(a + b) * 2` → `(a + b) * 2`). */
function wrapped(code: string, call: Node, arg: Node): string {
  const text = textOf(code, arg);
  return ATOMS.has(arg.type) || call.parent?.type === "parenthesized_expression"
    ? text
    : `(${text})`;
}

/** The `drop_call` entry of the operator registry (src/mutate/operator_registry.ts). */
export const dropCallOperator: OperatorEntry = {
  bug_type: "drop_call",
  extension: true,
  meaning:
    "Extension: a conversion left out (`int(x)` → `x`, `sorted(xs)` → `xs`, `s.strip()` → `s`).",
  operators: [...WRAPPERS, ...DROPPABLE_METHODS].map((name) => `drop_${name}`),
  edits: dropCallEdits,
  examples: [
    { operator: "drop_int", body: "return a * int(b + 1)", after: "return a * (b + 1)" },
    { operator: "drop_reversed", body: "return list(reversed(xs))", after: "return list(xs)" },
    { operator: "drop_sorted", body: "return sorted(xs)", after: "return xs" },
    { operator: "drop_strip", body: "return a.strip()", after: "return a" },
  ],
};
