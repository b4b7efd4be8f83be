import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import {
  calleeName,
  importedNames,
  intLiteral,
  methodName,
  operatorOf,
  plusMinusOneNames,
  positionalArgs,
  shiftEdit,
  textOf,
} from "./syntax.ts";

const BUG = "off_by_one";

/** Index and slice bounds worth moving: things that are (almost surely) integers. */
function indexLike(code: string, node: Node): boolean {
  switch (node.type) {
    case "integer":
    case "identifier":
      return true;
    case "unary_operator": {
      // `-1`, and a bound counted from the end: `s[-k:]`, `s[:-(n)]`.
      if (intLiteral(code, node) !== undefined) return true;
      const arg = node.childForFieldName("argument");
      return operatorOf(node)?.type === "-" &&
        (arg?.type === "identifier" || arg?.type === "parenthesized_expression");
    }
    case "binary_operator":
      return ["+", "-", "*", "//", "%"].includes(operatorOf(node)!.type);
    case "call":
      return calleeName(code, node) === "len";
    default:
      return false;
  }
}

/**
 * `off_by_one` sites, each moved by ±1: an integer bound of `range(...)`
 * (start and stop, not the step), a subscript index, a slice start or stop,
 * the start of `enumerate` (`enumerate(xs)` → `enumerate(xs, 1)`), an integer
 * literal argument of any other call (a count: `most_common(4)`), the initial
 * value of a counter or accumulator a following loop uses (`count = 0`), and
 * `len(...)` used outside a comparison, and any other offset `X ± k` outside
 * comparisons (which belong to off_by_one_boundary): `n - 1` → `n` or `n - 2`.
 *
 * A walk over a whole sequence has bounds too, implicit ones: the iterable of
 * a `for` or a comprehension, and the sequence a builtin consumes (`sum(xs)`,
 * `sorted(xs)`, `"".join(xs)`, `zip(a, b)`), move their start or stop by one:
 * `xs` → `xs[1:]` (`iter_skip_first`) or `xs[:-1]` (`iter_skip_last`).
 */
export function offByOneEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  const used = new Set<number>();
  const shift = (node: Node, name: string) => {
    used.add(node.id);
    for (const delta of [1, -1] as const) {
      out.push({
        bug_type: BUG,
        operator: `${name}_${delta > 0 ? "plus" : "minus"}_one`,
        extension: false,
        ...shiftEdit(code, node, delta),
      });
    }
  };

  for (const call of nodes.get("call") ?? []) {
    const name = calleeName(code, call);
    const args = positionalArgs(call);
    if (!args) continue;
    if (name === "range" && args.length >= 1 && args.length <= 3) {
      if (args.length === 1) shift(args[0], "range_stop");
      else {
        shift(args[0], "range_start");
        shift(args[1], "range_stop");
      }
      continue;
    }
    if (name === "enumerate" && args.length === 1 && argumentCount(call) === 1) {
      // enumerate(xs) counts from 0; the slip is counting from 1.
      out.push({
        bug_type: BUG,
        operator: "enumerate_start_plus_one",
        extension: false,
        start: args[0].endIndex,
        end: args[0].endIndex,
        text: ", 1",
      });
      continue;
    }
    const counted = name === "enumerate" ? args.slice(1) : args;
    for (const arg of counted) {
      if (arg.type === "integer" && intLiteral(code, arg) !== undefined) {
        shift(arg, name === "enumerate" ? "enumerate_start" : "int_arg");
      }
    }
  }

  for (const sub of nodes.get("subscript") ?? []) {
    const index = sub.childrenForFieldName("subscript");
    if (index.length === 1 && index[0] && indexLike(code, index[0])) shift(index[0], "index");
  }

  for (const slice of nodes.get("slice") ?? []) {
    let colons = 0;
    for (const child of slice.children) {
      if (!child) continue;
      if (child.type === ":") colons++;
      else if (child.isNamed && colons < 2 && indexLike(code, child)) {
        shift(child, colons === 0 ? "slice_start" : "slice_stop");
      }
    }
  }

  for (const assign of nodes.get("assignment") ?? []) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    if (left?.type !== "identifier" || right?.type !== "integer") continue;
    if (intLiteral(code, right) === undefined) continue;
    if (usedByLaterLoop(code, assign, textOf(code, left))) shift(right, "loop_init");
  }

  for (const call of nodes.get("call") ?? []) {
    // A length used as a count or bound outside comparisons (those are off_by_one_boundary's).
    if (calleeName(code, call) !== "len" || used.has(call.id)) continue;
    const parent = call.parent;
    if (parent?.type === "comparison_operator") continue;
    // In `len(s) - 1` the offset is the site; `len(s) + 1 - 1` would be no bug.
    if (parent?.type === "binary_operator" && ["+", "-"].includes(operatorOf(parent)!.type)) {
      const other = parent.childForFieldName("left")?.id === call.id
        ? parent.childForFieldName("right")
        : parent.childForFieldName("left");
      if (other?.type === "integer") continue;
    }
    shift(call, "len");
  }

  for (const bin of nodes.get("binary_operator") ?? []) {
    if (used.has(bin.id) || bin.parent?.type === "comparison_operator") continue;
    const op = operatorOf(bin)!.type;
    const right = bin.childForFieldName("right")!;
    if ((op !== "+" && op !== "-") || right.type !== "integer") continue;
    if (intLiteral(code, right) === undefined) continue;
    shift(bin, "offset");
  }

  const imported = importedNames(ctx);
  const walked = new Set<number>();
  const skip = (node: Node | null | undefined) => {
    if (!node || walked.has(node.id) || !sliceable(code, node, imported)) return;
    walked.add(node.id);
    for (const [text, operator] of [["[1:]", "iter_skip_first"], ["[:-1]", "iter_skip_last"]]) {
      out.push({
        bug_type: BUG,
        operator,
        extension: false,
        start: node.endIndex,
        end: node.endIndex,
        text,
      });
    }
  };
  for (const type of ["for_statement", "for_in_clause"]) {
    for (const loop of nodes.get(type) ?? []) skip(loop.childForFieldName("right"));
  }
  for (const call of nodes.get("call") ?? []) {
    for (const arg of consumedSequences(code, call)) skip(arg);
  }
  return out;
}

/** Builtins that walk the whole of their first argument. */
const CONSUMERS = new Set([
  "all",
  "any",
  "enumerate",
  "list",
  "max",
  "min",
  "reversed",
  "set",
  "sorted",
  "sum",
  "tuple",
]);

/** The arguments of `call` it walks from first to last item. */
function consumedSequences(code: string, call: Node): Node[] {
  const args = positionalArgs(call);
  if (!args || args.length === 0) return [];
  const name = calleeName(code, call);
  if (name === "zip") return args;
  if (name === "map" || name === "filter") return args.slice(1);
  // `max(a, b)` compares two values; only `max(xs)` walks a sequence.
  if (name && CONSUMERS.has(name) && (args.length === 1 || !["max", "min"].includes(name))) {
    return [args[0]];
  }
  if (!name && methodName(code, call) === "join" && args.length === 1) return [args[0]];
  return [];
}

/**
 * Whether `xs[1:]` can be written after `node` and slices the sequence it
 * names: a plain name (not an imported module or function), an attribute, an
 * item `m[i]` (a slice `s[a:b]` has its own bounds as sites), or a call that
 * returns a list, tuple or string (`sorted(xs)`, `str(n)`, `s.split()`).
 */
function sliceable(code: string, node: Node, imported: ReadonlySet<string>): boolean {
  switch (node.type) {
    case "identifier":
      return !imported.has(textOf(code, node));
    case "attribute":
      return true;
    case "subscript":
      return node.childrenForFieldName("subscript").every((s) => s?.type !== "slice");
    case "call":
      return ["list", "sorted", "str", "tuple"].includes(calleeName(code, node) ?? "") ||
        methodName(code, node) === "split";
    default:
      return false;
  }
}

/**
 * Whether `name = <int>` is followed, in the same block, by a loop that
 * reads or updates `name`: a counter or accumulator initialisation.
 */
function usedByLaterLoop(code: string, assign: Node, name: string): boolean {
  const statement = assign.parent;
  if (statement?.type !== "expression_statement") return false;
  const escaped = name.replace(/[^\p{L}\p{N}_]/gu, "");
  const word = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "u");
  for (let next = statement.nextNamedSibling; next; next = next.nextNamedSibling) {
    if (next.type !== "while_statement" && next.type !== "for_statement") continue;
    // A word match on the loop's text (cheaper than walking its identifiers); a hit inside a
    // string or comment only widens which initialisations count as counters.
    if (word.test(textOf(code, next))) return true;
  }
  return false;
}

/** Number of arguments of any kind (positional, keyword, splat). */
function argumentCount(call: Node): number {
  const args = call.childForFieldName("arguments");
  return args ? args.namedChildren.filter((a) => a && a.type !== "comment").length : 0;
}

/** The `off_by_one` entry of the operator registry (src/mutate/operator_registry.ts). */
export const offByOneOperator: OperatorEntry = {
  bug_type: "off_by_one",
  extension: false,
  meaning:
    "A bound of a walk or an index moved by one: `range` bounds, indexes, slice bounds, a counter's start, a length or offset outside comparisons, a bound counted from the end (`s[-k:]`), and the implicit bounds of a walk over a whole sequence (`for x in xs` → `xs[1:]` or `xs[:-1]`).",
  operators: [
    ...plusMinusOneNames([
      "range_stop",
      "range_start",
      "enumerate_start",
      "int_arg",
      "index",
      "slice_start",
      "slice_stop",
      "len",
      "offset",
      "loop_init",
    ]),
    "iter_skip_first",
    "iter_skip_last",
  ],
  edits: offByOneEdits,
  examples: [
    {
      operator: "range_stop_plus_one",
      body: "for i in range(a): pass",
      after: "for i in range(a + 1): pass",
    },
    {
      operator: "range_stop_minus_one",
      body: "for i in range(a): pass",
      after: "for i in range(a - 1): pass",
    },
    {
      operator: "range_start_plus_one",
      body: "for i in range(1, a): pass",
      after: "for i in range(2, a): pass",
    },
    {
      operator: "range_start_minus_one",
      body: "for i in range(1, a): pass",
      after: "for i in range(0, a): pass",
    },
    { operator: "index_plus_one", body: "return xs[a]", after: "return xs[a + 1]" },
    { operator: "index_minus_one", body: "return xs[a]", after: "return xs[a - 1]" },
    { operator: "slice_start_plus_one", body: "return xs[1:a]", after: "return xs[2:a]" },
    { operator: "slice_start_minus_one", body: "return xs[1:a]", after: "return xs[0:a]" },
    { operator: "slice_stop_plus_one", body: "return xs[1:a]", after: "return xs[1:a + 1]" },
    { operator: "slice_stop_minus_one", body: "return xs[1:a]", after: "return xs[1:a - 1]" },
    { operator: "slice_start_plus_one", body: "return xs[-a:]", after: "return xs[-a + 1:]" },
    {
      operator: "enumerate_start_plus_one",
      body: "return list(enumerate(xs))",
      after: "return list(enumerate(xs, 1))",
    },
    {
      operator: "enumerate_start_minus_one",
      body: "return list(enumerate(xs, 1))",
      after: "return list(enumerate(xs, 0))",
    },
    { operator: "int_arg_plus_one", body: "return a.split(b, 2)", after: "return a.split(b, 3)" },
    { operator: "int_arg_minus_one", body: "return a.split(b, 2)", after: "return a.split(b, 1)" },
    { operator: "len_plus_one", body: "return a * len(xs)", after: "return a * (len(xs) + 1)" },
    { operator: "len_minus_one", body: "return a * len(xs)", after: "return a * (len(xs) - 1)" },
    { operator: "offset_plus_one", body: "return f(a + 2)", after: "return f(a + 3)" },
    { operator: "offset_minus_one", body: "return f(a + 2)", after: "return f(a + 1)" },
    { operator: "iter_skip_first", body: "for x in xs: pass", after: "for x in xs[1:]: pass" },
    { operator: "iter_skip_last", body: "for x in xs: pass", after: "for x in xs[:-1]: pass" },
    {
      operator: "iter_skip_first",
      body: "return sum(map(int, str(a)))",
      after: "return sum(map(int, str(a)[1:]))",
    },
    {
      operator: "loop_init_plus_one",
      body: "n = 0\nwhile n < a:\n    n += 1\nreturn n",
      after: "n = 1",
    },
    {
      operator: "loop_init_minus_one",
      body: "n = 0\nwhile n < a:\n    n += 1\nreturn n",
      after: "n = -1",
    },
  ],
};
