import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { mutateCode, mutateCodeWith } from "./mutate_code.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { diffOneEdit } from "./diff_one_edit.ts";
import { verifyMutant } from "./verify_mutant.ts";

const parser = await loadPythonParser();
import { afters, only } from "../../test/support/mutate_candidates.ts";

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
