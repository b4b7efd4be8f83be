import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { identifiersIn, oneLine, operatorOf, textOf, wholeLines } from "./syntax.ts";

/** Statements a guard's body may consist of. */
const SIMPLE = new Set([
  "assert_statement",
  "break_statement",
  "continue_statement",
  "delete_statement",
  "expression_statement",
  "pass_statement",
  "raise_statement",
  "return_statement",
]);

/** How a guard leaves: its body must end with one of these. */
const EXITS = new Set([
  "break_statement",
  "continue_statement",
  "raise_statement",
  "return_statement",
]);

/** Whether a body (`block`) is a guard's: at most three simple statements ending in an exit. */
function guardBody(body: Node | null): boolean {
  if (!body) return false;
  const statements = body.namedChildren.filter((c): c is Node =>
    c !== null && c.type !== "comment"
  );
  if (statements.length === 0 || statements.length > 3) return false;
  if (!statements.every((s) => SIMPLE.has(s.type))) return false;
  return EXITS.has(statements[statements.length - 1].type);
}

/** Whether a body (`block`) is one to three simple statements none of which leaves. */
function actionBody(body: Node | null): boolean {
  if (!body) return false;
  const statements = body.namedChildren.filter((c): c is Node =>
    c !== null && c.type !== "comment"
  );
  return statements.length > 0 && statements.length <= 3 &&
    statements.every((s) => SIMPLE.has(s.type) && !EXITS.has(s.type));
}

/** Whether `node` runs inside a loop of its own function (or of the module). */
function inLoop(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "for_statement" || p.type === "while_statement") return true;
    if (p.type === "function_definition" || p.type === "lambda") return false;
  }
  return false;
}

/**
 * Whether the `if` statement `node` (without `else`, its body only acting) is
 * a `for` loop's filter: the loop's only statement, testing each item without
 * reading what its body changes. `if x > best: best = x` reads `best`: that is
 * the loop's running state, not a filter.
 */
function loopFilter(code: string, node: Node): boolean {
  const block = node.parent;
  if (block?.type !== "block" || block.parent?.type !== "for_statement") return false;
  if (block.parent.childForFieldName("body")?.id !== block.id) return false;
  if (block.namedChildren.filter((c) => c && c.type !== "comment").length !== 1) return false;
  const changed = new Set<string>();
  for (const statement of node.childForFieldName("consequence")!.namedChildren) {
    const target = statement?.type === "expression_statement" ? statement.namedChildren[0] : null;
    // `a = ...`, `a += ...`, `a[i] = ...` change `a`; so does a method call `a.append(x)`.
    const changes = target?.type === "assignment" || target?.type === "augmented_assignment"
      ? target.childForFieldName("left")
      : target?.type === "call"
      ? target.childForFieldName("function")?.childForFieldName("object") ?? null
      : null;
    if (changes) changedNames(code, changes, changed);
  }
  const condition = node.childForFieldName("condition");
  const read = condition ? identifiersIn(condition) : [];
  return !read.some((name) => changed.has(textOf(code, name)));
}

/** Add the names a target changes: `a` of `a`, `a[i]`, `a.x`; each of `a, b`. */
function changedNames(code: string, target: Node, into: Set<string>): void {
  switch (target.type) {
    case "identifier":
      into.add(textOf(code, target));
      return;
    case "subscript":
      changedNames(code, target.childForFieldName("value")!, into);
      return;
    case "attribute":
      changedNames(code, target.childForFieldName("object")!, into);
      return;
    case "pattern_list":
    case "tuple_pattern":
    case "list_pattern":
    case "tuple":
    case "list":
    case "parenthesized_expression":
      for (const item of target.namedChildren) if (item) changedNames(code, item, into);
  }
}

/** Replace a filter's condition by `True`, so every item passes. */
function alwaysTrue(code: string, condition: Node | null): ProposedEdit | null {
  const edit = neverTrue(code, condition, "drop_loop_filter");
  return edit && { ...edit, text: edit.text.replace("False", "True") };
}

/** Replace a check's condition by `False`, so the case it handles is never taken. */
function neverTrue(code: string, condition: Node | null, operator: string): ProposedEdit | null {
  if (!condition || !oneLine(code, condition.startIndex, condition.endIndex)) return null;
  const spaced = /\s/.test(code[condition.startIndex - 1] ?? " ");
  return {
    bug_type: BUG,
    operator,
    extension: false,
    start: condition.startIndex,
    end: condition.endIndex,
    text: spaced ? "False" : " False",
  };
}

const BUG = "remove_edge_case_check";

/**
 * Delete the `if` statement `node`, whole lines and one statement, or where
 * that would empty its block or its lines hold other code, make its
 * condition `False`.
 */
function deleteOrNeverTrue(
  code: string,
  node: Node,
  deletion: string,
  never: string,
): ProposedEdit | null {
  const siblings = node.parent?.namedChildren.filter((c) => c && c.type !== "comment") ?? [];
  const lines = siblings.length >= 2 ? wholeLines(code, node) : null;
  if (!lines) return neverTrue(code, node.childForFieldName("condition"), never);
  return {
    bug_type: BUG,
    operator: deletion,
    extension: false,
    start: lines[0],
    end: lines[1],
    text: "",
    deletion: true,
    at: node.startIndex,
  };
}

/** Left operands of `and` that read as a check guarding the right one. */
const CHECKS = new Set([
  "attribute",
  "call",
  "comparison_operator",
  "identifier",
  "not_operator",
  "subscript",
]);

/**
 * `remove_edge_case_check` sites: a check that handles a special case, removed.
 *
 * - Early guards: an `if` without `elif`/`else` whose body is at most three
 *   simple statements ending in `return`, `raise`, `continue` or `break`
 *   (`if not xs: return []`). The guard is deleted, whole lines and exactly
 *   one statement, however many lines it spans (`delete_guard`). Where that
 *   would leave its block empty (a syntax error) or its lines hold other
 *   code, its condition becomes `False` instead (`guard_never_true`), which
 *   keeps the diff to one line.
 * - The same guard with an `else`, or as an `elif`: its condition becomes
 *   `False` (`guard_never_true`, `elif_never_true`), so the general branch
 *   always runs.
 * - A check without `else` whose body (one to three simple statements) acts
 *   rather than leaves: as the whole body of a `for`, testing each item and
 *   not what its body changes, it filters the items (the statement form of a
 *   comprehension filter), and its condition becomes `True`
 *   (`drop_loop_filter`); outside any loop it adjusts a special case
 *   (`if n < 0: n = -n`) and is deleted like a guard (`delete_special_case`,
 *   or `special_case_never_true`). Inside a loop but not its whole body, such
 *   a check is the loop's logic (`if x > best: best = x`), not a special case.
 * - `check and rest` in a condition or value → `rest` (`drop_and_check`).
 * - One of two special cases tested together, `n == 0 or n == 1`, dropped:
 *   → `n == 1` (`drop_or_left`) or `n == 0` (`drop_or_right`), when both
 *   sides are checks.
 * - A conditional expression `a if c else b` → `a` or `b`
 *   (`conditional_keep_if`, `conditional_keep_else`).
 * - A comprehension filter dropped: `[x for x in xs if x]` → `[x for x in xs]`
 *   (`drop_comprehension_filter`).
 */
export function removeEdgeCaseCheckEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  const push = (edit: ProposedEdit | null) => edit && out.push(edit);
  // A check that also binds a name (`if (m := f(x)) is None:`) cannot go without the binding.
  const binds = (node: Node | null) => node !== null && textOf(code, node).includes(":=");
  for (const node of nodes.get("if_statement") ?? []) {
    const condition = node.childForFieldName("condition");
    const body = node.childForFieldName("consequence");
    if (binds(condition)) continue;
    const alternatives = node.childrenForFieldName("alternative");
    const guard = guardBody(body);
    if (!guard) {
      // Not a guard, but a check without `else` whose body only acts: a loop's filter, or
      // outside loops a special case's adjustment (`if n < 0: n = -n`).
      if (alternatives.length > 0 || !actionBody(body)) continue;
      if (loopFilter(code, node)) push(alwaysTrue(code, condition));
      else if (!inLoop(node)) {
        push(deleteOrNeverTrue(code, node, "delete_special_case", "special_case_never_true"));
      }
      continue;
    }
    if (alternatives.length > 0) {
      if (alternatives.every((a) => a?.type === "else_clause")) {
        push(neverTrue(code, condition, "guard_never_true"));
      }
      continue;
    }
    push(deleteOrNeverTrue(code, node, "delete_guard", "guard_never_true"));
  }
  for (const clause of nodes.get("elif_clause") ?? []) {
    if (!guardBody(clause.childForFieldName("consequence"))) continue;
    if (binds(clause.childForFieldName("condition"))) continue;
    push(neverTrue(code, clause.childForFieldName("condition"), "elif_never_true"));
  }
  for (const node of nodes.get("boolean_operator") ?? []) {
    if (operatorOf(node)?.type !== "and") continue;
    const left = node.childForFieldName("left")!;
    const right = node.childForFieldName("right")!;
    if (!CHECKS.has(left.type) || !oneLine(code, node.startIndex, node.endIndex)) continue;
    if (binds(left)) continue;
    out.push({
      bug_type: BUG,
      operator: "drop_and_check",
      extension: false,
      start: node.startIndex,
      end: node.endIndex,
      text: textOf(code, right),
    });
  }
  for (const node of nodes.get("boolean_operator") ?? []) {
    if (operatorOf(node)?.type !== "or") continue;
    const left = node.childForFieldName("left")!;
    const right = node.childForFieldName("right")!;
    if (!CHECKS.has(left.type) || !CHECKS.has(right.type)) continue;
    if (!oneLine(code, node.startIndex, node.endIndex) || binds(node)) continue;
    for (const [kept, operator] of [[right, "drop_or_left"], [left, "drop_or_right"]] as const) {
      out.push({
        bug_type: BUG,
        operator,
        extension: false,
        start: node.startIndex,
        end: node.endIndex,
        text: textOf(code, kept),
      });
    }
  }
  for (const node of nodes.get("conditional_expression") ?? []) {
    const [then, , otherwise] = node.namedChildren.filter((c) => c && c.type !== "comment");
    if (!then || !otherwise || !oneLine(code, node.startIndex, node.endIndex)) continue;
    if (binds(node)) continue;
    for (
      const [kept, operator] of [[then, "conditional_keep_if"], [
        otherwise,
        "conditional_keep_else",
      ]] as const
    ) {
      out.push({
        bug_type: BUG,
        operator,
        extension: false,
        start: node.startIndex,
        end: node.endIndex,
        text: textOf(code, kept),
      });
    }
  }
  for (const clause of nodes.get("if_clause") ?? []) {
    const previous = clause.previousSibling;
    if (!previous || !oneLine(code, previous.endIndex, clause.endIndex)) continue;
    if (binds(clause)) continue;
    out.push({
      bug_type: BUG,
      operator: "drop_comprehension_filter",
      extension: false,
      start: previous.endIndex,
      end: clause.endIndex,
      text: "",
    });
  }
  return out;
}

/** The `remove_edge_case_check` entry of the operator registry (src/mutate/operator_registry.ts). */
export const removeEdgeCaseCheckOperator: OperatorEntry = {
  bug_type: "remove_edge_case_check",
  extension: false,
  meaning:
    "A special case no longer handled: an early guard deleted (the only edit that deletes a line, and then one statement) or its condition made `False`, outside loops a special case's adjustment deleted the same way (`if n < 0: n = -n`), a loop's filter made `True`, an `and` check, one case of an `or`, a conditional expression's branch, or a comprehension filter dropped.",
  operators: [
    "conditional_keep_else",
    "conditional_keep_if",
    "delete_guard",
    "delete_special_case",
    "drop_and_check",
    "drop_comprehension_filter",
    "drop_loop_filter",
    "drop_or_left",
    "drop_or_right",
    "elif_never_true",
    "guard_never_true",
    "special_case_never_true",
  ],
  edits: removeEdgeCaseCheckEdits,
  examples: [
    { operator: "drop_and_check", body: "return a and b", after: "return b" },
    { operator: "conditional_keep_if", body: "return a if b else 0", after: "return a" },
    { operator: "conditional_keep_else", body: "return a if b else 0", after: "return 0" },
    {
      operator: "drop_comprehension_filter",
      body: "return [x for x in xs if x]",
      after: "return [x for x in xs]",
    },
    { operator: "guard_never_true", body: "if a: return b", after: "if False: return b" },
    { operator: "drop_or_left", body: "return a == 0 or b == 1", after: "return b == 1" },
    { operator: "drop_or_right", body: "return a == 0 or b == 1", after: "return a == 0" },
    { operator: "delete_guard", body: "if not xs: return a\nreturn xs[0]", after: "" },
    {
      operator: "drop_loop_filter",
      body: "for x in xs:\n    if x > b: a += x\nreturn a",
      after: "    if True: a += x",
    },
    { operator: "delete_special_case", body: "if a < 0: a = -a\nreturn a * b", after: "" },
    { operator: "special_case_never_true", body: "if a < 0: a = -a", after: "if False: a = -a" },
    {
      operator: "elif_never_true",
      body: "if a > 1:\n    return b\nelif a:\n    return 0\nreturn b",
      after: "elif False:",
    },
  ],
  deletes: true,
};
