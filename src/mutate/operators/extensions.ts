import type { Node } from "../python_parser.ts";
import {
  calleeName,
  importedNames,
  inParameters,
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
  append: "extend",
  bisect_left: "bisect_right",
  bisect_right: "bisect_left",
  capitalize: "title",
  chr: "ord",
  cos: "sin",
  extend: "append",
  intersection: "union",
  isalnum: "isalpha",
  issubset: "issuperset",
  issuperset: "issubset",
  keys: "values",
  log10: "log",
  log2: "log10",
  match: "search",
  search: "match",
  sin: "cos",
  title: "capitalize",
  union: "intersection",
  values: "keys",
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
  ord: "chr",
  rfind: "find",
  rindex: "index",
  rstrip: "lstrip",
  startswith: "endswith",
  upper: "lower",
};

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

/** Nodes with a tested condition, and the operator that negates it. */
const NEGATED: Record<string, string> = {
  if_statement: "negate_if",
  elif_clause: "negate_elif",
  while_statement: "negate_while",
  if_clause: "negate_filter",
  conditional_expression: "negate_ternary",
};

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
 * `elif`, `while`, a comprehension's filter and `a if c else b`),
 * `wrong_return_value` (`return True` ↔ `return False`, `return x` → `return None`), `wrong_constant`
 * (an integer or decimal literal moved by one, a boolean literal outside a
 * return flipped), `wrong_call` (a function or method called instead of its twin:
 * `max`↔`min`, `upper`↔`lower`, `startswith`↔`endswith`, see `TWINS`) and
 * `drop_call` (a conversion left out: `int(x)` → `x`, `sorted(xs)` → `xs`,
 * `s.strip()` → `s`).
 */
export function extensionEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  for (const [type, negateOperator] of Object.entries(NEGATED)) {
    for (const node of nodes.get(type) ?? []) {
      const cond = conditionOf(node);
      if (!cond || !oneLine(code, cond.startIndex, cond.endIndex)) continue;
      if (cond.type === "not_operator") {
        const arg = cond.childForFieldName("argument")!;
        out.push(edit("negate_condition", "drop_not", cond, textOf(code, arg)));
      } else {
        const text = textOf(code, cond);
        const negated = LOOSER_THAN_NOT.has(cond.type) ? `not (${text})` : `not ${text}`;
        // `while(x):` has no space before its condition; `whilenot` would be a name.
        const spaced = /\s/.test(code[cond.startIndex - 1] ?? " ") ? negated : ` ${negated}`;
        out.push(edit("negate_condition", negateOperator, cond, spaced));
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
    // The value computed but never handed back: what a caller sees when a function forgets
    // to return it.
    if (
      value && !["true", "false", "none", "comment"].includes(value.type) &&
      oneLine(code, value.startIndex, value.endIndex)
    ) {
      out.push(edit("wrong_return_value", "return_none", value, "None"));
    }
  }
  for (const node of nodes.get("integer") ?? []) {
    if (inParameters(node)) continue;
    // `-3` moves as a whole: `-2` and `-4`, never `-0`.
    const negated = node.parent?.type === "unary_operator" &&
      node.parent.childForFieldName("operator")?.type === "-";
    const site = negated ? node.parent! : node;
    const n = intLiteral(code, site);
    if (n === undefined) continue;
    out.push(edit("wrong_constant", "const_plus_one", site, String(n + 1)));
    if (n !== 0) out.push(edit("wrong_constant", "const_minus_one", site, String(n - 1)));
  }
  for (const node of nodes.get("float") ?? []) {
    if (inParameters(node)) continue;
    const m = /^([0-9]*)(\.[0-9]+|\.)$/.exec(textOf(code, node));
    if (!m) continue;
    const whole = Number(m[1] || "0");
    out.push(edit("wrong_constant", "float_plus_one", node, `${whole + 1}${m[2]}`));
    if (whole > 0) out.push(edit("wrong_constant", "float_minus_one", node, `${whole - 1}${m[2]}`));
  }
  for (const type of ["true", "false"] as const) {
    for (const node of nodes.get(type) ?? []) {
      if (node.parent?.type === "return_statement" || inParameters(node)) continue;
      const flipped = type === "true" ? "False" : "True";
      out.push(edit("wrong_constant", `${type}_to_${flipped.toLowerCase()}`, node, flipped));
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

/** The tested condition of an `if`, `elif`, `while`, comprehension filter or `a if c else b`. */
function conditionOf(node: Node): Node | null {
  if (node.type === "if_clause") return node.namedChildren[0];
  if (node.type === "conditional_expression") return node.namedChildren[1];
  return node.childForFieldName("condition");
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
