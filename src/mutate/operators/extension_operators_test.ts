import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { type Candidate, mutateCode } from "../mutate_code.ts";
import { loadPythonParser } from "../../common/python_parser.ts";
import { diffOneEdit } from "../diff_one_edit.ts";
import { verifyMutant } from "../verify_mutant.ts";

const parser = await loadPythonParser();

async function extensions(code: string): Promise<Candidate[]> {
  const cs = (await mutateCode(code, { extensions: true })).filter((c) => c.extension);
  for (const c of cs) assertEquals(verifyMutant(parser, code, c), [], `${c.operator} ${c.after}`);
  return cs;
}

function afters(cs: Candidate[], operator: string, line?: number): string[] {
  return cs.filter((c) => c.operator === operator && (line === undefined || c.line === line))
    .map((c) => c.after);
}

Deno.test("wrong_variable: a read becomes one of the two names bound first, only where both are bound", async () => {
  const code = "def f(xs, k=2):\n    total = 0\n    for x in xs:\n        total += x * k\n" +
    "    ys = [x for x in xs if x > k]\n    g = lambda k: k + 1\n" +
    "    return xs.count(k), g(total), sorted(ys, key=abs)\n";
  const cs = await extensions(code);
  // `xs` at line 3: `k` (a parameter) and `total` (bound on line 2); not `x`, bound by this very
  // loop, nor `ys`, bound later.
  assertEquals(afters(cs, "use_other_variable", 3), ["    for x in k:", "    for x in total:"]);
  // `total +=` is a write; `x` and `k` are reads.
  assertEquals(afters(cs, "use_other_variable", 4), [
    "        total += xs * k",
    "        total += k * k",
    "        total += x * xs",
    "        total += x * total",
  ]);
  // The comprehension's own `x` and the lambda's own `k` are theirs, not the function's; the
  // comprehension's outermost iterable and its filter's `k` are the function's.
  assertEquals(afters(cs, "use_other_variable", 5), [
    "    ys = [x for x in k if x > k]",
    "    ys = [x for x in total if x > k]",
    "    ys = [x for x in xs if x > xs]",
    "    ys = [x for x in xs if x > total]",
  ]);
  strictEqual(afters(cs, "use_other_variable", 6).length, 0);
  // Never the called `count`, `g` or `sorted`, the keyword `key` or the builtin `abs`.
  assertEquals(afters(cs, "use_other_variable", 7), [
    "    return k.count(k), g(total), sorted(ys, key=abs)",
    "    return total.count(k), g(total), sorted(ys, key=abs)",
    "    return xs.count(xs), g(total), sorted(ys, key=abs)",
    "    return xs.count(total), g(total), sorted(ys, key=abs)",
    "    return xs.count(k), g(xs), sorted(ys, key=abs)",
    "    return xs.count(k), g(k), sorted(ys, key=abs)",
    "    return xs.count(k), g(total), sorted(xs, key=abs)",
    "    return xs.count(k), g(total), sorted(k, key=abs)",
  ]);
  ok(cs.every((c) => c.line !== 1), "the signature is untouched");
});

Deno.test("wrong_variable: a nested function has its own names, and self is never one", async () => {
  const code = "class C:\n    def m(self, a, b):\n        def inner(c, b=b):\n" +
    "            return c - b\n        return inner(a) + self.b * b\n";
  const cs = await extensions(code);
  // A default value is read outside `inner`, and the signature stays as it is.
  strictEqual(afters(cs, "use_other_variable", 3).length, 0);
  // `inner`'s names are its own two, not the method's.
  assertEquals(afters(cs, "use_other_variable", 4), [
    "            return b - b",
    "            return c - c",
  ]);
  assertEquals(afters(cs, "use_other_variable", 5), [
    "        return inner(b) + self.b * b",
    "        return inner(a) + self.b * a",
  ]);
});

Deno.test("wrong_variable: a walrus binds from after its expression", async () => {
  const cs = await extensions("def w(xs):\n    if (n := len(xs)) > 1:\n        return n\n");
  assertEquals(afters(cs, "use_other_variable"), ["        return xs"]);
});

Deno.test("wrong_string: a literal emptied whole with its prefix and quotes; docstrings, f-strings and long strings kept", async () => {
  const code = 'def s(t):\n    """Doc \'x\'."""\n' +
    '    u = f"{t}!" + r\'\\d+\' + \'\' + b\'x\' + """a"""\n' +
    '    return u.split(","), """two\nlines"""\n';
  const cs = await extensions(code);
  assertEquals(cs.filter((c) => c.bug_type === "wrong_string").map((c) => [c.operator, c.after]), [
    ["string_to_empty", '    u = f"{t}!" + r\'\' + \'\' + b\'x\' + """a"""'],
    ["empty_to_space", '    u = f"{t}!" + r\'\\d+\' + \' \' + b\'x\' + """a"""'],
    ["string_to_empty", '    u = f"{t}!" + r\'\\d+\' + \'\' + b\'\' + """a"""'],
    ["string_to_empty", '    u = f"{t}!" + r\'\\d+\' + \'\' + b\'x\' + """"""'],
    ["string_to_empty", '    return u.split(""), """two'],
  ]);
});

Deno.test("drop_argument: a keyword argument goes with its own comma, wherever it stands", async () => {
  const code = "def d(xs):\n    xs.sort(key=len, reverse=True)\n    return max(xs, default=0)\n";
  const cs = await extensions(code);
  assertEquals(afters(cs, "drop_keyword_argument"), [
    "    xs.sort(reverse=True)",
    "    xs.sort(key=len)",
    "    return max(xs)",
  ]);
});

Deno.test("missing_statement: a bare call statement deleted whole, never the only one of its block", async () => {
  const code = "def d(xs, ys):\r\n    xs.sort()\r\n    for x in xs:\r\n        ys.append(x)\r\n" +
    "    return ys\r\n";
  const cs = await extensions(code);
  const deleted = cs.filter((c) => c.operator === "delete_call_statement");
  assertEquals(deleted.map((c) => [c.line, c.before, c.after]), [[2, "    xs.sort()", ""]]);
  strictEqual(
    deleted[0].code,
    "def d(xs, ys):\r\n    for x in xs:\r\n        ys.append(x)\r\n    return ys\r\n",
  );
  // Only the deleting types may delete a line: the same code under another label is no edit.
  strictEqual(diffOneEdit(code, deleted[0].code, "missing_statement")?.deleted, 1);
  strictEqual(diffOneEdit(code, deleted[0].code, "wrong_variable"), null);
});

Deno.test("wrong_constant: any literal outside the signature, a negative one whole; wrong_return_value: return None", async () => {
  const code = "def c(xs, k=3, flag=True):\n    ys = xs[::-1]\n    ys.sort(reverse=False)\n" +
    "    if not ys:\n        return None\n    return ys[0] * 0.5\n";
  const cs = await extensions(code);
  assertEquals(afters(cs, "const_plus_one"), ["    ys = xs[::0]"]);
  assertEquals(afters(cs, "const_minus_one"), ["    ys = xs[::-2]"]);
  assertEquals(afters(cs, "false_to_true"), ["    ys.sort(reverse=True)"]);
  assertEquals(afters(cs, "float_plus_one"), ["    return ys[0] * 1.5"]);
  // `0.5` has no whole part to lower; `return None` is already None.
  assertEquals(afters(cs, "float_minus_one"), []);
  assertEquals(afters(cs, "return_none"), ["    return None"]);
  strictEqual(cs.find((c) => c.operator === "return_none")?.line, 6);
  ok(cs.every((c) => c.line !== 1), "defaults in the signature stay");
});

Deno.test("negate_condition: a comprehension's filter and a conditional expression", async () => {
  const cs = await extensions("def n(xs, k):\n    return [x if x or k else 0 for x in xs if(x)]\n");
  assertEquals(afters(cs, "negate_ternary"), [
    "    return [x if not (x or k) else 0 for x in xs if(x)]",
  ]);
  assertEquals(afters(cs, "negate_filter"), [
    "    return [x if x or k else 0 for x in xs if not (x)]",
  ]);
});
