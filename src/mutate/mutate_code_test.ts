import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { applyEdits, type Candidate, mutateCode, mutateCodeWith } from "./mutate_code.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { diffOneEdit } from "./diff_one_edit.ts";
import { verifyMutant } from "./verify_mutant.ts";
import { exampleCode, OPERATOR_EXAMPLES } from "./operator_examples.ts";

const parser = await loadPythonParser();

/** The one candidate with this operator whose edited line is `after`; fails otherwise. */
function only(candidates: Candidate[], operator: string, after?: string): Candidate {
  const found = candidates.filter((c) =>
    c.operator === operator && (after === undefined || c.after === after)
  );
  strictEqual(
    found.length,
    1,
    `${operator} ${after ?? ""}: ${JSON.stringify(candidates.map((c) => [c.operator, c.after]))}`,
  );
  return found[0];
}

function afters(candidates: Candidate[], operator: string): string[] {
  return candidates.filter((c) => c.operator === operator).map((c) => c.after);
}

Deno.test("wrong_comparison: each link of a chained comparison, is not / not in, never a for's in", async () => {
  const code =
    "def f(x, a, b, c):\n    for y in c:\n        if 0 < x <= 10 and a is not None and b not in c:\n            return y\n";
  const cs = await mutateCode(code);
  strictEqual(
    only(cs, "lt_to_le").code,
    "def f(x, a, b, c):\n    for y in c:\n        if 0 <= x <= 10 and a is not None and b not in c:\n            return y\n",
  );
  only(cs, "le_to_lt", "        if 0 < x < 10 and a is not None and b not in c:");
  only(cs, "is_not_to_is", "        if 0 < x <= 10 and a is None and b not in c:");
  only(cs, "not_in_to_in", "        if 0 < x <= 10 and a is not None and b in c:");
  // The `in` of `for y in c` is not a comparison (its iterable's bounds are off_by_one sites).
  ok(cs.every((c) => c.line !== 2 || c.operator.startsWith("iter_skip_")), "line 2 untouched");
  assertEquals(
    cs.filter((c) => c.bug_type === "wrong_comparison").map((c) => c.operator),
    ["lt_to_le", "le_to_lt", "is_not_to_is", "not_in_to_in"],
  );
  // A chain has three operands: only the two-operand `b not in c` is swapped.
  assertEquals(afters(cs, "swap_comparison_operands"), [
    "        if 0 < x <= 10 and a is not None and c not in b:",
  ]);
});

Deno.test("wrong_comparison: in → not in and is → is not, and == / != / >= / >", async () => {
  const cs = await mutateCode(
    "def g(a, b):\n    return a in b or a is b or a == b or a != b or a >= b or a > b\n",
  );
  const line = (s: string) => `    return ${s}`;
  only(cs, "in_to_not_in", line("a not in b or a is b or a == b or a != b or a >= b or a > b"));
  only(cs, "is_to_is_not", line("a in b or a is not b or a == b or a != b or a >= b or a > b"));
  only(cs, "eq_to_ne", line("a in b or a is b or a != b or a != b or a >= b or a > b"));
  only(cs, "ne_to_eq", line("a in b or a is b or a == b or a == b or a >= b or a > b"));
  only(cs, "ge_to_gt", line("a in b or a is b or a == b or a != b or a > b or a > b"));
  only(cs, "gt_to_ge", line("a in b or a is b or a == b or a != b or a >= b or a >= b"));
});

Deno.test("wrong_operator: binary minus changes, unary minus never does", async () => {
  const cs = await mutateCode("def h(x):\n    y = -x - 1\n    return y * -2\n");
  assertEquals(afters(cs, "sub_to_add"), ["    y = -x + 1"]);
  for (const c of cs) ok(!c.after.includes("+x") && !/= x/.test(c.after), c.after);
  only(cs, "mul_to_div", "    return y / -2");
  only(cs, "mul_to_floordiv", "    return y // -2");
});

Deno.test("wrong_operator: //, /, %, **, bitwise, and/or and augmented assignments", async () => {
  const code =
    "def k(a, b):\n    a += b\n    a -= 1\n    a //= 2\n    c = a // b + a / b - a % b + a ** b\n" +
    "    d = a & b | a ^ b << 1 >> 2\n    return c and d or a\n";
  const cs = await mutateCode(code);
  only(cs, "iadd_to_isub", "    a -= b");
  only(cs, "isub_to_iadd", "    a += 1");
  only(cs, "ifloordiv_to_idiv", "    a /= 2");
  only(cs, "floordiv_to_div", "    c = a / b + a / b - a % b + a ** b");
  only(cs, "div_to_floordiv", "    c = a // b + a // b - a % b + a ** b");
  only(cs, "mod_to_floordiv", "    c = a // b + a / b - a // b + a ** b");
  only(cs, "pow_to_mul", "    c = a // b + a / b - a % b + a * b");
  only(cs, "bitand_to_bitor", "    d = a | b | a ^ b << 1 >> 2");
  only(cs, "xor_to_bitor", "    d = a & b | a | b << 1 >> 2");
  only(cs, "lshift_to_rshift", "    d = a & b | a ^ b >> 1 >> 2");
  only(cs, "and_to_or", "    return c or d or a");
  only(cs, "or_to_and", "    return c and d and a");
});

Deno.test("off_by_one: range bounds, indexes, slice start/stop (never the step), offsets", async () => {
  const code =
    "def m(s, n):\n    for i in range(1, n):\n        t = s[i + 1] + s[1:n:2]\n    return n - 1\n";
  const cs = await mutateCode(code);
  only(cs, "range_start_plus_one", "    for i in range(2, n):");
  only(cs, "range_stop_plus_one", "    for i in range(1, n + 1):");
  only(cs, "range_stop_minus_one", "    for i in range(1, n - 1):");
  only(cs, "index_minus_one", "        t = s[i] + s[1:n:2]");
  only(cs, "index_plus_one", "        t = s[i + 2] + s[1:n:2]");
  only(cs, "slice_start_minus_one", "        t = s[i + 1] + s[0:n:2]");
  only(cs, "slice_stop_plus_one", "        t = s[i + 1] + s[1:n + 1:2]");
  ok(cs.every((c) => !c.after.includes(":1]") && !c.after.includes(":3]")), "the step stays 2");
  strictEqual(only(cs, "offset_plus_one").code, code.replace("return n - 1", "return n"));
  only(cs, "offset_minus_one", "    return n - 2");
});

Deno.test("off_by_one: range(n) and len in a division get parentheses where precedence needs them", async () => {
  const cs = await mutateCode(
    "def avg(xs):\n    for i in range(len(xs)):\n        pass\n    return sum(xs) / len(xs)\n",
  );
  only(cs, "range_stop_minus_one", "    for i in range(len(xs) - 1):");
  only(cs, "len_minus_one", "    return sum(xs) / (len(xs) - 1)");
  only(cs, "len_plus_one", "    return sum(xs) / (len(xs) + 1)");
});

Deno.test("off_by_one: an offset that vanishes takes its now-needless parentheses with it", async () => {
  const cs = await mutateCode("def z(x):\n    x = x & (x - 1)\n    return f(x - 1)\n");
  only(cs, "offset_plus_one", "    x = x & x");
  only(cs, "offset_minus_one", "    x = x & (x - 2)");
  // A call's parentheses are not the offset's.
  only(cs, "offset_plus_one", "    return f(x)");
});

Deno.test("off_by_one: enumerate start, counters initialised before a loop, integer arguments", async () => {
  const code =
    "def e(xs):\n    count = 0\n    for i, x in enumerate(xs):\n        count += x\n    return round(count, 2)\n";
  const cs = await mutateCode(code);
  only(cs, "enumerate_start_plus_one", "    for i, x in enumerate(xs, 1):");
  only(cs, "loop_init_plus_one", "    count = 1");
  only(cs, "loop_init_minus_one", "    count = -1");
  only(cs, "int_arg_plus_one", "    return round(count, 3)");
});

Deno.test("off_by_one_boundary: constants in comparisons, including negatives and len offsets", async () => {
  const cs = await mutateCode(
    "def b(s, x):\n    return len(s) >= 3 and x > -1 and x < len(s) - 1\n",
  );
  only(cs, "boundary_plus_one", "    return len(s) >= 4 and x > -1 and x < len(s) - 1");
  only(cs, "boundary_plus_one", "    return len(s) >= 3 and x > 0 and x < len(s) - 1");
  only(cs, "boundary_minus_one", "    return len(s) >= 3 and x > -2 and x < len(s) - 1");
  only(cs, "boundary_plus_one", "    return len(s) >= 3 and x > -1 and x < len(s)");
  only(cs, "boundary_minus_one", "    return len(s) >= 3 and x > -1 and x < len(s) - 2");
  // `len(s)` next to a constant is not itself moved: the constant is the boundary.
  strictEqual(afters(cs, "len_bound_plus_one").length, 0);
  const lens = await mutateCode("def c(i, s):\n    return i < len(s)\n");
  only(lens, "len_bound_minus_one", "    return i < len(s) - 1");
  only(lens, "len_bound_plus_one", "    return i < len(s) + 1");
});

Deno.test("swap_arguments: call arguments, non-commutative operands, indexes, slices, tuples", async () => {
  const code =
    "def p(a, b, m):\n    x = pow(a, b) - max(a, b)\n    y = a - 1\n    z = f(a, key=b)\n" +
    "    w = m[a][b] + m[a:b]\n    return 4 / 3, a - b\n";
  const cs = await mutateCode(code);
  only(cs, "swap_args", "    x = pow(b, a) - max(a, b)");
  strictEqual(afters(cs, "swap_args").length, 1, "max commutes, keyword arguments stay put");
  only(cs, "swap_operands", "    return 4 / 3, b - a");
  only(cs, "swap_operands", "    return 3 / 4, a - b");
  ok(!afters(cs, "swap_operands").includes("    y = 1 - a"), "a name is not swapped with a number");
  only(cs, "swap_indexes", "    w = m[b][a] + m[a:b]");
  only(cs, "swap_slice_bounds", "    w = m[a][b] + m[b:a]");
  only(cs, "swap_tuple_items", "    return a - b, 4 / 3");
  // Calls are atoms, so their text swaps whole.
  only(cs, "swap_operands", "    x = max(a, b) - pow(a, b)");
});

Deno.test("swap_arguments: arguments on two lines are rejected with a reason, not dropped silently", () => {
  const result = mutateCodeWith(parser, "def q(a, b):\n    return pow(a,\n               b)\n");
  ok(result.candidates.every((c) => c.operator !== "swap_args"));
  assertEquals(result.rejected.map((r) => [r.operator, r.line, r.reason]), [
    ["swap_args", 2, "edit spans lines (the diff must be one line)"],
  ]);
});

Deno.test("remove_edge_case_check: a one-line guard is deleted as one line", async () => {
  const code = "def first(xs):\n    if not xs: return None\n    return xs[0]\n";
  const c = only(await mutateCode(code), "delete_guard");
  strictEqual(c.code, "def first(xs):\n    return xs[0]\n");
  assertEquals([c.line, c.column, c.before, c.after], [2, 5, "    if not xs: return None", ""]);
});

Deno.test("remove_edge_case_check: a two-line guard in a nested function is deleted as one statement", async () => {
  const code =
    "def outer(xs):\n    def inner(x):\n        if x < 0:\n            return 0  # clamp\n" +
    "        return x * 2\n    return [inner(x) for x in xs]\n";
  const c = only(await mutateCode(code), "delete_guard");
  strictEqual(
    c.code,
    "def outer(xs):\n    def inner(x):\n        return x * 2\n    return [inner(x) for x in xs]\n",
  );
  strictEqual(c.before, "        if x < 0:\n            return 0  # clamp");
  assertEquals(diffOneEdit(code, c.code, "remove_edge_case_check"), {
    line: 3,
    before: c.before,
    after: "",
    deleted: 2,
  });
  assertEquals(verifyMutant(parser, code, { ...c }), []);
});

Deno.test("remove_edge_case_check: a guard alone in its block, with else, or as elif becomes False", async () => {
  const code = "def g(xs):\n    for x in xs:\n        if x < 0:\n            return x\n" +
    "    if not xs:\n        return 0\n    else:\n        pass\n    if xs[0]:\n        pass\n    elif xs[1]:\n        raise ValueError\n    return 1\n";
  const cs = await mutateCode(code);
  assertEquals(afters(cs, "guard_never_true"), ["        if False:", "    if False:"]);
  assertEquals(afters(cs, "elif_never_true"), ["    elif False:"]);
  strictEqual(afters(cs, "delete_guard").length, 0);
});

Deno.test("remove_edge_case_check: and-checks, conditional expressions and comprehension filters", async () => {
  const cs = await mutateCode(
    "def r(xs, d):\n    ys = [x for x in xs if x]\n    return d and d[0] if xs else 0\n",
  );
  only(cs, "drop_comprehension_filter", "    ys = [x for x in xs]");
  only(cs, "drop_and_check", "    return d[0] if xs else 0");
  only(cs, "conditional_keep_if", "    return d and d[0]");
  only(cs, "conditional_keep_else", "    return 0");
});

Deno.test("remove_edge_case_check: a check that binds a name with := is kept", async () => {
  const cs = await mutateCode(
    "def v(xs):\n    if (m := len(xs)) == 0:\n        return 0\n    return m and (k := m) and k\n",
  );
  assertEquals(cs.filter((c) => c.bug_type === "remove_edge_case_check").map((c) => c.after), [
    "    return (k := m) and k",
  ]);
});

Deno.test("walrus and lambda bodies are mutated like any expression", async () => {
  const cs = await mutateCode(
    "def w(xs):\n    if (n := len(xs)) > 10:\n        xs.sort(key=lambda p: p[1] - p[0])\n    return n\n",
  );
  only(cs, "gt_to_ge", "    if (n := len(xs)) >= 10:");
  only(cs, "boundary_plus_one", "    if (n := len(xs)) > 11:");
  only(cs, "len_minus_one", "    if (n := len(xs) - 1) > 10:");
  only(cs, "sub_to_add", "        xs.sort(key=lambda p: p[1] + p[0])");
  only(cs, "swap_operands", "        xs.sort(key=lambda p: p[0] - p[1])");
  only(cs, "index_minus_one", "        xs.sort(key=lambda p: p[0] - p[0])");
});

Deno.test("strings, f-strings, comments, annotations and decorators are never touched", async () => {
  const code =
    "@cache(2 - 1)\ndef s(a: Annotated[int, 3 - 1], b: int = 0) -> Tuple[int, 4 - 1]:\n" +
    '    """a < b, x - 1, if not xs: return []"""\n' +
    "    msg = f\"{a + b} < {a}\" + 'x - y'  # a - b < c\n    return msg\n";
  const cs = await mutateCode(code);
  ok(cs.length > 0);
  for (const c of cs) {
    ok(c.line === 4, `only line 4 changes: ${c.operator} on line ${c.line}`);
    ok(
      c.after.includes('f"{a + b} < {a}"') && c.after.includes("'x - y'") &&
        c.after.endsWith("# a - b < c"),
    );
  }
  assertEquals(cs.map((c) => c.operator), ["swap_operands"]);
});

Deno.test("tabs and CRLF survive every edit; before/after carry no \\r", async () => {
  const code = "def f(xs):\r\n\tif not xs:\r\n\t\treturn 0\r\n\treturn xs[0] + 1\r\n";
  const cs = await mutateCode(code);
  strictEqual(only(cs, "delete_guard").code, "def f(xs):\r\n\treturn xs[0] + 1\r\n");
  const c = only(cs, "add_to_sub");
  strictEqual(c.code, "def f(xs):\r\n\tif not xs:\r\n\t\treturn 0\r\n\treturn xs[0] - 1\r\n");
  assertEquals([c.line, c.column, c.before, c.after], [
    4,
    15,
    "\treturn xs[0] + 1",
    "\treturn xs[0] - 1",
  ]);
  for (const m of cs) {
    ok(!m.before.includes("\r") && !m.after.includes("\r"));
    strictEqual(m.code.split("\r\n").length, m.operator === "delete_guard" ? 3 : 5);
  }
});

Deno.test("a guard on the last line of a CRLF file without a final newline takes the break before it", async () => {
  const code = "def f(x):\r\n\ty = x\r\n\tif y: return y";
  const c = only(await mutateCode(code), "delete_guard");
  strictEqual(c.code, "def f(x):\r\n\ty = x");
  assertEquals(verifyMutant(parser, code, c), []);
});

Deno.test("non-ASCII identifiers and strings: columns are UTF-16 code units", async () => {
  const code =
    'def größe(wörter):\n    n = len("é😀") + größe\n    s = "é😀" + wörter\n    return s != "ü-ß"\n';
  const cs = await mutateCode(code);
  const c = only(cs, "add_to_sub");
  strictEqual(
    c.code,
    'def größe(wörter):\n    n = len("é😀") - größe\n    s = "é😀" + wörter\n    return s != "ü-ß"\n',
  );
  // 4 spaces, `n = len(` (8), `"` é 😀 (2 units) `"` (5), `) ` (2): the + is the 20th unit.
  assertEquals([c.line, c.column], [2, 20]);
  only(cs, "swap_operands", '    s = wörter + "é😀"');
  only(cs, "ne_to_eq", '    return s == "ü-ß"');
  // `"é😀" + wörter` concatenates a literal string: `-` there would only raise TypeError.
  ok(cs.every((c) => c.line !== 3 || c.operator === "swap_operands"));
});

Deno.test("identical codes are kept once and never equal the canonical", () => {
  const code = "def d(a):\n    return f(a, a) + g(a - 0, a - 0)\n";
  const result = mutateCodeWith(parser, code);
  const codes = result.candidates.map((c) => c.code);
  strictEqual(new Set(codes).size, codes.length);
  ok(!codes.includes(code));
  // f(a, a) swaps to itself and is not proposed; g's two equal arguments neither.
  strictEqual(afters(result.candidates, "swap_args").length, 0);
});

Deno.test("an edit that breaks the syntax is rejected with the error's position", () => {
  const code = "def f(x):\n    return (x + 1)\n";
  const tree = parser.parse(code);
  const start = code.lastIndexOf(")");
  const result = applyEdits(parser, tree, code, [
    {
      bug_type: "wrong_operator",
      operator: "bad",
      extension: false,
      start,
      end: start + 1,
      text: "",
    },
    {
      bug_type: "wrong_operator",
      operator: "good",
      extension: false,
      start: start - 3,
      end: start - 2,
      text: "-",
    },
  ]);
  tree.delete();
  assertEquals(result.candidates.map((c) => c.code), ["def f(x):\n    return (x - 1)\n"]);
  strictEqual(result.rejected.length, 1);
  ok(
    result.rejected[0].reason.startsWith("syntax error after edit (at line "),
    result.rejected[0].reason,
  );
  assertEquals([result.rejected[0].line, result.rejected[0].column], [2, 18]);
});

Deno.test("a canonical that does not parse yields an error and no candidates", async () => {
  const result = mutateCodeWith(parser, "def f(x):\n    return (x +\n");
  assertEquals(result.candidates, []);
  ok(result.error?.startsWith("canonical does not parse"), result.error);
  await rejects(mutateCode("def f(:\n"), /canonical does not parse/);
});

Deno.test("extensions are off by default and labelled when on", async () => {
  const code =
    "def t(x):\n    if x > 0:\n        return True\n    found = False\n    return found\n";
  const plain = await mutateCode(code);
  ok(plain.every((c) => !c.extension));
  const ext = await mutateCode(code, { extensions: true });
  const extra = ext.filter((c) => c.extension);
  // Grouped by bug type in registry order, then in source order.
  assertEquals(extra.map((c) => [c.bug_type, c.operator, c.after]), [
    ["negate_condition", "negate_if", "    if not x > 0:"],
    ["wrong_return_value", "true_to_false", "        return False"],
    ["wrong_return_value", "return_none", "    return None"],
    ["wrong_constant", "false_to_true", "    found = True"],
    ["wrong_variable", "use_other_variable", "    return x"],
  ]);
  assertEquals(ext.filter((c) => !c.extension), plain);
  const tight = await mutateCode("def u(b):\n    while(b != 0):\n        b //= 2\n", {
    extensions: true,
  });
  only(tight, "negate_while", "    while not (b != 0):");
});

Deno.test("every candidate of the tricky fixture is one verified edit outside strings, comments, annotations and decorators", async () => {
  const code = await Deno.readTextFile(
    new URL("../../test/fixtures/mutate/tricky.py", import.meta.url),
  );
  const result = mutateCodeWith(parser, code, { extensions: true });
  strictEqual(result.error, undefined);
  assertEquals(result.rejected, []);
  const types = new Set(result.candidates.map((c) => c.bug_type));
  assertEquals([...types].sort(), [
    "drop_call",
    "negate_condition",
    "off_by_one",
    "off_by_one_boundary",
    "remove_edge_case_check",
    "swap_arguments",
    "wrong_comparison",
    "wrong_constant",
    "wrong_operator",
    "wrong_return_value",
    "wrong_string",
    "wrong_variable",
  ]);
  const protectedLines = [5, 6, 7]; // decorator, annotated signature, docstring
  const comment = "# guard: x > 0 and y - 1";
  for (const c of result.candidates) {
    const problems = verifyMutant(parser, code, c);
    assertEquals(problems, [], `${c.operator} at ${c.line}:${c.column}`);
    if (c.operator !== "delete_guard") {
      ok(!protectedLines.includes(c.line), `${c.operator} touched line ${c.line}`);
    }
    if (c.before.includes(comment)) ok(c.after.endsWith(comment) || c.after === "", c.operator);
    for (const literal of ['"é"', '"😀 + 1"', 'f"{total - 1} < {k} and ü"', '"x <= y"']) {
      if (!c.before.includes(literal)) continue;
      // `wrong_string` replaces a literal whole (`"é"` → `""`), never an operator inside one.
      if (c.bug_type === "wrong_string" && !c.after.includes(literal)) {
        strictEqual(c.after, c.before.replace(literal, '""'), `${c.operator} on ${literal}`);
      } else {
        ok(c.after.includes(literal) || c.after === "", `${c.operator} changed ${literal}`);
      }
    }
  }
});

Deno.test("off_by_one: a walk over a whole sequence skips its first or last item", async () => {
  const cs = await mutateCode(
    "import re\ndef f(xs, ys, s):\n    t = [x for x in sorted(xs)]\n    u = sum(xs) + max(xs, ys)\n" +
      "    v = ''.join(s.split()) + re.sub('a', 'b', s)\n    return list(zip(xs, ys[1:])), t, u, v\n",
  );
  assertEquals(afters(cs, "iter_skip_first"), [
    "    t = [x for x in sorted(xs[1:])]",
    "    t = [x for x in sorted(xs)[1:]]",
    "    u = sum(xs[1:]) + max(xs, ys)",
    "    v = ''.join(s.split()[1:]) + re.sub('a', 'b', s)",
    "    return list(zip(xs[1:], ys[1:])), t, u, v",
  ]);
  // `max(xs, ys)` compares two values, `ys[1:]` already has bounds, `re` is a module.
  strictEqual(afters(cs, "iter_skip_last").length, 5);
});

Deno.test("swap_arguments: any two arguments, and a method's object with its argument", async () => {
  const cs = await mutateCode(
    "import re\ndef f(a, b, c, s):\n    return zip(a, b, c), ' '.join(s), re.escape(s), s.count(1)\n",
  );
  assertEquals(afters(cs, "swap_args"), [
    "    return zip(b, a, c), ' '.join(s), re.escape(s), s.count(1)",
    "    return zip(c, b, a), ' '.join(s), re.escape(s), s.count(1)",
    "    return zip(a, c, b), ' '.join(s), re.escape(s), s.count(1)",
  ]);
  // Not `re.escape(s)` (a module is no operand) nor `s.count(1)` (a number has no method).
  assertEquals(afters(cs, "swap_receiver"), [
    "    return zip(a, b, c), s.join(' '), re.escape(s), s.count(1)",
  ]);
  assertEquals(
    afters(await mutateCode("def f(xs, k):\n    return xs[k:] + xs[:k]\n"), "swap_operands"),
    ["    return xs[:k] + xs[k:]"],
  );
});

Deno.test("extensions: a shadowed builtin keeps its name, a conversion drops with its parentheses", async () => {
  const cs = await mutateCode(
    "def f(xs, max):\n    return max(xs) + abs(xs[0] - 1) + min(xs)\n",
    { extensions: true },
  );
  assertEquals(afters(cs, "max_to_min"), []);
  assertEquals(afters(cs, "min_to_max"), ["    return max(xs) + abs(xs[0] - 1) + max(xs)"]);
  assertEquals(afters(cs, "drop_abs"), ["    return max(xs) + (xs[0] - 1) + min(xs)"]);
  // Off by default: the paper's six types only.
  ok((await mutateCode("def f(xs):\n    return max(xs)\n")).every((c) => !c.extension));
});

Deno.test("every operator's worked example: exact result", async () => {
  for (const example of OPERATOR_EXAMPLES) {
    const code = exampleCode(example);
    const cs = await mutateCode(code, { extensions: true });
    const c = example.after === ""
      ? only(cs, example.operator)
      : only(cs, example.operator, `    ${example.after}`);
    const lines = code.split("\n");
    const at = c.line - 1;
    strictEqual(lines[at], c.before, example.operator);
    if (example.after === "") lines.splice(at, 1);
    else lines[at] = `    ${example.after}`;
    strictEqual(c.code, lines.join("\n"), example.operator);
  }
  const tested = new Set(OPERATOR_EXAMPLES.map((e) => e.operator));
  // Any operator the engine emits on the tricky fixture has a worked example.
  const tricky = await Deno.readTextFile(
    new URL("../../test/fixtures/mutate/tricky.py", import.meta.url),
  );
  for (const c of await mutateCode(tricky, { extensions: true })) {
    ok(tested.has(c.operator), c.operator);
  }
});

Deno.test("swap_arguments: compound operands swap whole only where the grouping stays", async () => {
  const code = "def p(a, b, c):\n    x = a * b - c\n    y = a - b - c\n    z = a + b - c\n" +
    "    return 2 ** -a, -a ** b, x // 2 - 1, (a + 1) << b\n";
  const cs = await mutateCode(code);
  assertEquals(afters(cs, "swap_operands"), [
    "    x = c - a * b",
    // `a - b - c` → `c - a - b` would regroup: only the inner `a - b` swaps.
    "    y = b - a - c",
    // `a + b - c` neither: `c - a + b` regroups, and `+` commutes.
    "    return 2 ** -a, -b ** a, x // 2 - 1, (a + 1) << b",
    "    return 2 ** -a, -a ** b, x // 2 - 1, b << (a + 1)",
  ]);
  // `2 ** -a` → `-a ** 2` would be `-(a ** 2)`; `x // 2` → `2 // x` and `n - 1` → `1 - n` are
  // noise, not slips.
});

Deno.test("swap_arguments: a number swaps with a name only as a power's base or exponent or a shift", async () => {
  const code = "def q(n, k, s):\r\n\ta = 2 ** n + n ** 2 + n ** 0.5  # 2 ** n\r\n" +
    '\tb = 1 << k | k >> 1 | n % 10\r\n\tc = f"{2 ** n}" + \'%d\' % n + "1 << k"\r\n' +
    "\treturn a - 1, b / 2\r\n";
  const cs = await mutateCode(code);
  assertEquals(afters(cs, "swap_operands"), [
    "\ta = n ** 2 + n ** 2 + n ** 0.5  # 2 ** n",
    "\ta = 2 ** n + 2 ** n + n ** 0.5  # 2 ** n",
    "\tb = k << 1 | k >> 1 | n % 10",
    // Two strings concatenated swap like any other operands.
    `\tc = '%d' % n + f"{2 ** n}" + "1 << k"`,
  ]);
  // Not `n ** 0.5` (a root), `k >> 1`, `n % 10`, `a - 1`, `b / 2`; never the comment, the
  // f-string, the string literals or `'%d' % n` (formatting: `n % '%d'` only raises).
  for (const c of cs) ok(c.after.endsWith("# 2 ** n") || c.line !== 2, c.after);
});

Deno.test("wrong_operator: ~x becomes -x, outside strings, comments, decorators and annotations", async () => {
  const code = "@mask(~0)\ndef m(x: Annotated[int, ~1], ys):\n" +
    '\ts = "~x" + f"{~x}"  # ~x\r\n\treturn [x & ~y for y in ys], -x\r\n';
  const cs = await mutateCode(code);
  assertEquals(afters(cs, "invert_to_neg"), ["\treturn [x & -y for y in ys], -x"]);
  // `-x` is not turned into `~x`: in arithmetic that is no slip.
  ok(cs.every((c) => c.line !== 4 || !c.after.includes("~x")), "no -x → ~x");
  ok(cs.every((c) => c.line >= 3));
});

Deno.test("remove_edge_case_check: a for loop's filter becomes True, its running state does not", async () => {
  const code = "def c(xs, k):\n    n = 0\n    best = xs[0]\n" +
    '    for x in xs:\n        if x % 2 == 0 and "é" not in str(x):  # even\n            n += x\n' +
    "    for x in xs:\n        if x > best:\n            best = x\n" +
    "    for x in xs:\n        if x:\n            n += 1\n        else:\n            n -= 1\n" +
    "    for x in xs:\n        if x < k: print(x)\n        n += 1\n" +
    "    return n, [x for x in xs if x]\n";
  const cs = await mutateCode(code);
  assertEquals(afters(cs, "drop_loop_filter"), [
    "        if True:  # even",
  ]);
  // `if x > best: best = x` reads what it changes; an if with else is no filter; an if with
  // company in its loop is the loop's logic; none of them is a special case outside a loop.
  strictEqual(afters(cs, "delete_special_case").length, 0);
  strictEqual(afters(cs, "special_case_never_true").length, 0);
  only(cs, "drop_comprehension_filter", "    return n, [x for x in xs]");
  // An index changes nothing, a method call changes its object: `seen` is running state.
  const marks = await mutateCode(
    "def d(xs, out, seen):\n    for i in range(len(xs)):\n        if xs[i] > 0:\n" +
      "            out[i] = 1\n    for x in xs:\n        if x not in seen:\n            seen.add(x)\n",
  );
  assertEquals(afters(marks, "drop_loop_filter"), ["        if True:"]);
});

Deno.test("remove_edge_case_check: a special case adjusted outside loops is deleted as one statement", async () => {
  const code = "def a(n: int = -1) -> int:\r\n    if n < 0:\r\n        n = -n  # é\r\n" +
    "    if n > 9: n = 9\r\n    while n:\r\n        if n == 3:\r\n            n -= 1\r\n" +
    "        n -= 1\r\n    return n\r\n";
  const cs = await mutateCode(code);
  const deleted = cs.filter((c) => c.operator === "delete_special_case");
  assertEquals(deleted.map((c) => [c.line, c.before]), [
    [2, "    if n < 0:\n        n = -n  # é"],
    [4, "    if n > 9: n = 9"],
  ]);
  strictEqual(
    deleted[0].code,
    "def a(n: int = -1) -> int:\r\n    if n > 9: n = 9\r\n    while n:\r\n        if n == 3:\r\n" +
      "            n -= 1\r\n        n -= 1\r\n    return n\r\n",
  );
  for (const c of deleted) assertEquals(verifyMutant(parser, code, c), []);
  // Alone in its block, the check's condition becomes False instead.
  const alone = await mutateCode("def b(s):\n\tif s.endswith('\\t'):\n\t\ts = s[:-1]\n");
  only(alone, "special_case_never_true", "\tif False:");
});

Deno.test("off_by_one: a bound counted from the end, and a number's digits walked", async () => {
  const cs = await mutateCode(
    "def r(xs, k, n):\n    return xs[-k:] + xs[:-(k)], sum(map(int, str(abs(n))))  # xs[-k:]\n",
  );
  only(
    cs,
    "slice_start_plus_one",
    "    return xs[-k + 1:] + xs[:-(k)], sum(map(int, str(abs(n))))  # xs[-k:]",
  );
  only(
    cs,
    "slice_stop_minus_one",
    "    return xs[-k:] + xs[:-(k) - 1], sum(map(int, str(abs(n))))  # xs[-k:]",
  );
  only(
    cs,
    "iter_skip_first",
    "    return xs[-k:] + xs[:-(k)], sum(map(int, str(abs(n))[1:]))  # xs[-k:]",
  );
  // The comment's `xs[-k:]` is never touched.
  ok(cs.every((c) => c.after.endsWith("# xs[-k:]")));
});
