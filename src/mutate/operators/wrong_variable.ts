import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { identifiersIn, inParameters, textOf } from "./syntax.ts";

/** Scopes of their own inside a function: a name they bind is not the function's. */
const INNER_SCOPES = new Set([
  "dictionary_comprehension",
  "generator_expression",
  "lambda",
  "list_comprehension",
  "set_comprehension",
]);

/** Statements and clauses whose `left` field is written, not read. */
const TARGET_HOLDERS = new Set([
  "assignment",
  "augmented_assignment",
  "for_in_clause",
  "for_statement",
]);

/** At most this many other names replace each read: the earliest bound, so a slip stays near. */
const ALTERNATIVES_PER_READ = 2;

/** Receivers: `self` standing in for a value, or a value for `self`, is no slip anyone makes. */
const NEVER_SUBSTITUTED = new Set(["self", "cls"]);

/** A name the function binds, and from where on a read may use it. */
interface Binding {
  name: string;
  from: number;
}

/**
 * `wrong_variable` (extension): a read of one of the function's own names
 * (a parameter or a local) replaced by another of them that is already bound
 * there: `return (a, b)` → `return (a, a)`, `area = b * h` → `area = b * b`.
 * Called names, attribute names, keyword names, writes and names of inner
 * scopes (comprehensions, lambdas, nested functions) are never touched.
 */
export function wrongVariableEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const bindings = new Map<number, Binding[]>();
  const bind = (fn: Node, name: string, from: number) => {
    let list = bindings.get(fn.id);
    if (!list) bindings.set(fn.id, list = []);
    const known = list.find((b) => b.name === name);
    if (!known) list.push({ name, from });
    else if (from < known.from) known.from = from;
  };
  for (const fn of nodes.get("function_definition") ?? []) {
    const params = fn.childForFieldName("parameters");
    for (const param of params?.namedChildren ?? []) {
      const name = param && parameterName(param);
      if (name) bind(fn, textOf(code, name), 0);
    }
  }
  const reads: { node: Node; fn: Node }[] = [];
  for (const id of nodes.get("identifier") ?? []) {
    const fn = enclosingFunction(id);
    // A default value is evaluated outside the function, and the signature stays as it is.
    if (!fn || inParameters(id)) continue;
    const target = targetOf(id);
    if (target) {
      bind(fn, textOf(code, id), target.from);
    } else if (isRead(id)) {
      reads.push({ node: id, fn });
    }
  }
  const out: ProposedEdit[] = [];
  for (const { node, fn } of reads) {
    const name = textOf(code, node);
    const bound = bindings.get(fn.id) ?? [];
    if (NEVER_SUBSTITUTED.has(name) || !bound.some((b) => b.name === name)) continue;
    if (shadowedInside(code, node, fn, name)) continue;
    const others = bound
      .filter((b) => b.name !== name && !NEVER_SUBSTITUTED.has(b.name) && b.from <= node.startIndex)
      .sort((a, b) => a.from - b.from)
      .slice(0, ALTERNATIVES_PER_READ);
    for (const other of others) {
      out.push({
        bug_type: "wrong_variable",
        operator: "use_other_variable",
        extension: true,
        start: node.startIndex,
        end: node.endIndex,
        text: other.name,
      });
    }
  }
  return out;
}

/** The identifier a parameter binds (`a`, `a=1`, `a: int`, `a: int = 1`); none for splats. */
function parameterName(param: Node): Node | null {
  switch (param.type) {
    case "identifier":
      return param;
    case "default_parameter":
    case "typed_default_parameter":
      return param.childForFieldName("name");
    case "typed_parameter":
      return param.namedChildren[0]?.type === "identifier" ? param.namedChildren[0] : null;
    default:
      return null;
  }
}

/** The innermost function whose own name `node` is, or null at module level or in an inner scope. */
function enclosingFunction(node: Node): Node | null {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type === "function_definition") return at;
    if (at.type === "class_definition") return null;
  }
  return null;
}

/**
 * When `id` is written by an assignment, a loop, a walrus or an augmented
 * assignment of its function's own scope: from where on it is bound (after
 * the statement, or from the loop's body on). Null for anything else.
 */
function targetOf(id: Node): { from: number } | null {
  let child = id;
  for (let at = id.parent; at; child = at, at = at.parent) {
    if (INNER_SCOPES.has(at.type) || at.type === "function_definition") return null;
    if (at.type === "named_expression") {
      return at.childForFieldName("name")?.id === child.id ? { from: at.endIndex } : null;
    }
    if (TARGET_HOLDERS.has(at.type)) {
      if (at.childForFieldName("left")?.id !== child.id) return null;
      if (at.type === "for_in_clause") return null;
      const body = at.type === "for_statement" ? at.childForFieldName("body") : null;
      return { from: body ? body.startIndex : at.endIndex };
    }
    if (
      !["pattern_list", "tuple_pattern", "list_pattern", "parenthesized_expression"].includes(
        at.type,
      )
    ) {
      return null;
    }
  }
  return null;
}

/** Whether `id` is read as a value (not a callee, an attribute name, a keyword or a parameter). */
function isRead(id: Node): boolean {
  const parent = id.parent;
  if (!parent) return false;
  const is = (field: string) => parent.childForFieldName(field)?.id === id.id;
  switch (parent.type) {
    case "call":
      return !is("function");
    case "attribute":
      return is("object");
    case "keyword_argument":
    case "default_parameter":
    case "typed_default_parameter":
      return is("value");
    case "parameters":
    case "lambda_parameters":
    case "typed_parameter":
    case "function_definition":
    case "class_definition":
    case "global_statement":
    case "nonlocal_statement":
    case "dotted_name":
    case "aliased_import":
    case "as_pattern":
    case "as_pattern_target":
    case "keyword_pattern":
    case "list_splat_pattern":
    case "dictionary_splat_pattern":
      return false;
    default:
      return true;
  }
}

/** Whether an inner scope between `node` and `fn` binds `name` itself (a comprehension's or a lambda's). */
function shadowedInside(code: string, node: Node, fn: Node, name: string): boolean {
  for (let at = node.parent; at && at.id !== fn.id; at = at.parent) {
    if (!INNER_SCOPES.has(at.type)) continue;
    if (at.type === "lambda") {
      const params = at.childForFieldName("parameters");
      if (params && identifiersIn(params).some((n) => textOf(code, n) === name)) return true;
      continue;
    }
    for (const clause of at.namedChildren) {
      if (clause?.type !== "for_in_clause") continue;
      const left = clause.childForFieldName("left");
      if (left && identifiersIn(left).some((n) => textOf(code, n) === name)) return true;
    }
  }
  return false;
}

/** The `wrong_variable` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongVariableOperator: OperatorEntry = {
  bug_type: "wrong_variable",
  extension: true,
  meaning:
    "Extension: a read of a parameter or local replaced by another already bound there (the two bound first).",
  operators: ["use_other_variable"],
  edits: wrongVariableEdits,
  examples: [
    { operator: "use_other_variable", body: "return a - b", after: "return a - a" },
  ],
};
