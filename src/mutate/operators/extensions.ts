import type { Node } from "../python_parser.ts";
import {
  calleeName,
  importedNames,
  intLiteral,
  methodName,
  oneLine,
  positionalArgs,
  type ProposedEdit,
  type SiteContext,
  textOf,
} from "./_syntax.ts";

/**
 * Builtins, functions and methods with a twin of the same shape that a slip
 * calls instead: `max`↔`min`, `s.upper()`↔`s.lower()`, `math.floor`↔`math.ceil`.
 */
const TWINS: Record<string, string> = {
  all: "any",
  any: "all",
  ceil: "floor",
  endswith: "startswith",
  find: "rfind",
  floor: "ceil",
  index: "rindex",
  isdigit: "isalpha",
  isalpha: "isdigit",
  islower: "isupper",
  isupper: "islower",
  lower: "upper",
  lstrip: "rstrip",
  max: "min",
  min: "max",
  nlargest: "nsmallest",
  nsmallest: "nlargest",
  rfind: "find",
  rindex: "index",
  rstrip: "lstrip",
  startswith: "endswith",
  upper: "lower",
};

/** One-argument conversions a slip leaves out: `int(x)` → `x`, `sorted(xs)` → `xs`. */
const WRAPPERS = new Set([
  "abs",
  "float",
  "int",
  "list",
  "round",
  "set",
  "sorted",
  "str",
  "tuple",
]);

/** Argument-less methods a slip leaves out: `s.lower()` → `s`. */
const DROPPABLE_METHODS = new Set(["lower", "upper", "strip", "lstrip", "rstrip", "split"]);

/** Conditions that `not` binds more tightly than, so `not c` needs `not (c)`. */
const LOOSER_THAN_NOT = new Set([
  "boolean_operator",
  "conditional_expression",
  "lambda",
  "named_expression",
]);

function edit(bug_type: string, operator: string, node: Node, text: string): ProposedEdit {
  return { bug_type, operator, extension: true, start: node.startIndex, end: node.endIndex, text };
}

/**
 * Extension operators, beyond the paper's six bug types and off by default:
 * `negate_condition` (`if c:` → `if not c:`, `if not c:` → `if c:`, also for
 * `elif` and `while`), `wrong_return_value` (`return True` ↔ `return False`)
 * `wrong_constant` (an integer literal in an assignment, a return or an
 * arithmetic operation moved by one, a boolean literal in an assignment
 * flipped), `wrong_call` (a function or method called instead of its twin:
 * `max`↔`min`, `upper`↔`lower`, `startswith`↔`endswith`, see `TWINS`) and
 * `drop_call` (a conversion left out: `int(x)` → `x`, `sorted(xs)` → `xs`,
 * `s.strip()` → `s`).
 */
export function extensionEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const type of ["if_statement", "elif_clause", "while_statement"]) {
    for (const node of nodes.get(type) ?? []) {
      const cond = node.childForFieldName("condition");
      if (!cond || !oneLine(code, cond.startIndex, cond.endIndex)) continue;
      if (cond.type === "not_operator") {
        const arg = cond.childForFieldName("argument")!;
        out.push(edit("negate_condition", "drop_not", cond, textOf(code, arg)));
      } else {
        const text = textOf(code, cond);
        const negated = LOOSER_THAN_NOT.has(cond.type) ? `not (${text})` : `not ${text}`;
        // `while(x):` has no space before its condition; `whilenot` would be a name.
        const spaced = /\s/.test(code[cond.startIndex - 1] ?? " ") ? negated : ` ${negated}`;
        out.push(edit("negate_condition", `negate_${type.split("_")[0]}`, cond, spaced));
      }
    }
  }
  for (const ret of nodes.get("return_statement") ?? []) {
    const value = ret.namedChildren[0];
    if (value?.type === "true") {
      out.push(edit("wrong_return_value", "true_to_false", value, "False"));
    }
    if (value?.type === "false") {
      out.push(edit("wrong_return_value", "false_to_true", value, "True"));
    }
  }
  const constantSites = [
    ...(nodes.get("assignment") ?? []).map((a) => a.childForFieldName("right")),
    ...(nodes.get("return_statement") ?? []).map((r) => r.namedChildren[0]),
    ...(nodes.get("integer") ?? []).filter((n) => n.parent?.type === "binary_operator"),
  ];
  for (const value of constantSites) {
    if (!value) continue;
    const n = value.type === "integer" ? intLiteral(code, value) : undefined;
    if (n !== undefined) {
      out.push(edit("wrong_constant", "const_plus_one", value, String(n + 1)));
      if (n > 0) out.push(edit("wrong_constant", "const_minus_one", value, String(n - 1)));
    }
    if (value.type === "true" && value.parent?.type === "assignment") {
      out.push(edit("wrong_constant", "true_to_false", value, "False"));
    }
    if (value.type === "false" && value.parent?.type === "assignment") {
      out.push(edit("wrong_constant", "false_to_true", value, "True"));
    }
  }
  const imported = importedNames(ctx);
  for (const call of nodes.get("call") ?? []) {
    const fn = call.childForFieldName("function");
    const nameNode = fn?.type === "identifier" ? fn : fn?.childForFieldName("attribute");
    const name = calleeName(code, call) ?? methodName(code, call);
    // A local function or variable named `max` is the canonical's own; only builtins and
    // imported or method names have the twin meant.
    const twin = name !== undefined && Object.hasOwn(TWINS, name) ? TWINS[name] : undefined;
    if (nameNode && twin && (fn?.type === "attribute" || !shadowed(code, name!, imported))) {
      out.push(edit("wrong_call", `${name}_to_${twin}`, nameNode, twin));
    }
    const args = positionalArgs(call);
    const callee = calleeName(code, call);
    if (callee && WRAPPERS.has(callee) && args?.length === 1 && argumentTotal(call) === 1) {
      if (!shadowed(code, callee, imported)) {
        out.push(edit("drop_call", `drop_${callee}`, call, wrapped(code, call, args[0])));
      }
    }
    const method = methodName(code, call);
    if (method && DROPPABLE_METHODS.has(method) && argumentTotal(call) === 0) {
      out.push(
        edit("drop_call", `drop_${method}`, call, textOf(code, fn!.childForFieldName("object")!)),
      );
    }
  }
  return out;
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

/** Whether `name` is defined by the canonical itself (a def, a parameter, an import of that name). */
function shadowed(code: string, name: string, imported: ReadonlySet<string>): boolean {
  if (imported.has(name)) return false;
  const escaped = name.replace(/[^\p{L}\p{N}_]/gu, "");
  return new RegExp(
    `(def\\s+${escaped}\\b|\\b${escaped}\\s*=[^=]|[(,]\\s*${escaped}\\s*[,)=:])`,
    "u",
  )
    .test(code);
}
