import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { applyEdits, mutateCode, mutateCodeWith } from "./mutate_code.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { verifyMutant } from "./verify_mutant.ts";
import { OPERATOR_EXAMPLES } from "./operator_examples.ts";
import { exampleCode } from "./operator_entry.ts";

const parser = await loadPythonParser();
import { afters, only } from "../../test/support/mutate_candidates.ts";

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
