/**
 * One worked example per mutation operator: a function body and the line the
 * operator makes of it. The unit tests check the engine makes exactly these
 * edits, and `data/MUTATION_OPERATORS.md` is generated from them, so the
 * reference cannot drift from the engine.
 */
export interface OperatorExample {
  operator: string;
  /** Body of `def f(a, b, xs):`, one statement per line, without the body's indent. */
  body: string;
  /** The edited line after the edit, without the body's indent ("" when deleted). */
  after: string;
}

/** The parameters every example's function takes. */
export const EXAMPLE_SIGNATURE = "def f(a, b, xs):";

/** The example's whole function, as the engine sees it. */
export function exampleCode(example: OperatorExample): string {
  return `${EXAMPLE_SIGNATURE}\n${example.body.split("\n").map((l) => `    ${l}\n`).join("")}`;
}

export const OPERATOR_EXAMPLES: readonly OperatorExample[] = [
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
  { operator: "boundary_plus_one", body: "return a >= 3", after: "return a >= 4" },
  { operator: "boundary_minus_one", body: "return a >= 3", after: "return a >= 2" },
  { operator: "len_bound_plus_one", body: "return a <= len(xs)", after: "return a <= len(xs) + 1" },
  {
    operator: "len_bound_minus_one",
    body: "return a <= len(xs)",
    after: "return a <= len(xs) - 1",
  },
  { operator: "swap_args", body: "return divmod(a, b)", after: "return divmod(b, a)" },
  { operator: "swap_operands", body: "return a // b", after: "return b // a" },
  { operator: "swap_operands", body: "return 2 ** a", after: "return a ** 2" },
  { operator: "swap_operands", body: "return a * b - xs[0]", after: "return xs[0] - a * b" },
  { operator: "swap_comparison_operands", body: "return a < b", after: "return b < a" },
  { operator: "swap_indexes", body: "return xs[a][b]", after: "return xs[b][a]" },
  { operator: "swap_slice_bounds", body: "return xs[a:b]", after: "return xs[b:a]" },
  { operator: "swap_tuple_items", body: "return a, b", after: "return b, a" },
  { operator: "drop_and_check", body: "return a and b", after: "return b" },
  { operator: "conditional_keep_if", body: "return a if b else 0", after: "return a" },
  { operator: "conditional_keep_else", body: "return a if b else 0", after: "return 0" },
  {
    operator: "drop_comprehension_filter",
    body: "return [x for x in xs if x]",
    after: "return [x for x in xs]",
  },
  { operator: "lt_to_le", body: "return a < b", after: "return a <= b" },
  { operator: "le_to_lt", body: "return a <= b", after: "return a < b" },
  { operator: "gt_to_ge", body: "return a > b", after: "return a >= b" },
  { operator: "ge_to_gt", body: "return a >= b", after: "return a > b" },
  { operator: "eq_to_ne", body: "return a == b", after: "return a != b" },
  { operator: "ne_to_eq", body: "return a != b", after: "return a == b" },
  { operator: "in_to_not_in", body: "return a in b", after: "return a not in b" },
  { operator: "not_in_to_in", body: "return a not in b", after: "return a in b" },
  { operator: "is_to_is_not", body: "return a is b", after: "return a is not b" },
  { operator: "is_not_to_is", body: "return a is not b", after: "return a is b" },
  { operator: "add_to_sub", body: "return a + b", after: "return a - b" },
  { operator: "sub_to_add", body: "return a - b", after: "return a + b" },
  { operator: "mul_to_div", body: "return a * b", after: "return a / b" },
  { operator: "mul_to_floordiv", body: "return a * b", after: "return a // b" },
  { operator: "div_to_mul", body: "return a / b", after: "return a * b" },
  { operator: "div_to_floordiv", body: "return a / b", after: "return a // b" },
  { operator: "floordiv_to_div", body: "return a // b", after: "return a / b" },
  { operator: "floordiv_to_mul", body: "return a // b", after: "return a * b" },
  { operator: "mod_to_floordiv", body: "return a % b", after: "return a // b" },
  { operator: "pow_to_mul", body: "return a ** b", after: "return a * b" },
  { operator: "bitand_to_bitor", body: "return a & b", after: "return a | b" },
  { operator: "bitor_to_bitand", body: "return a | b", after: "return a & b" },
  { operator: "xor_to_bitor", body: "return a ^ b", after: "return a | b" },
  { operator: "lshift_to_rshift", body: "return a << b", after: "return a >> b" },
  { operator: "rshift_to_lshift", body: "return a >> b", after: "return a << b" },
  { operator: "invert_to_neg", body: "return a & ~b", after: "return a & -b" },
  { operator: "and_to_or", body: "return a and b", after: "return a or b" },
  { operator: "or_to_and", body: "return a or b", after: "return a and b" },
  { operator: "iadd_to_isub", body: "a += b", after: "a -= b" },
  { operator: "isub_to_iadd", body: "a -= b", after: "a += b" },
  { operator: "imul_to_idiv", body: "a *= b", after: "a /= b" },
  { operator: "imul_to_ifloordiv", body: "a *= b", after: "a //= b" },
  { operator: "idiv_to_imul", body: "a /= b", after: "a *= b" },
  { operator: "idiv_to_ifloordiv", body: "a /= b", after: "a //= b" },
  { operator: "ifloordiv_to_idiv", body: "a //= b", after: "a /= b" },
  { operator: "ifloordiv_to_imul", body: "a //= b", after: "a *= b" },
  { operator: "imod_to_ifloordiv", body: "a %= b", after: "a //= b" },
  { operator: "iand_to_ior", body: "a &= b", after: "a |= b" },
  { operator: "ior_to_iand", body: "a |= b", after: "a &= b" },
  { operator: "ixor_to_ior", body: "a ^= b", after: "a |= b" },
  { operator: "ilshift_to_irshift", body: "a <<= b", after: "a >>= b" },
  { operator: "irshift_to_ilshift", body: "a >>= b", after: "a <<= b" },
  { operator: "guard_never_true", body: "if a: return b", after: "if False: return b" },
  { operator: "negate_while", body: "while a: a -= 1", after: "while not a: a -= 1" },
  { operator: "negate_if", body: "if a or b: pass", after: "if not (a or b): pass" },
  { operator: "drop_not", body: "if not a: pass", after: "if a: pass" },
  { operator: "true_to_false", body: "return True", after: "return False" },
  { operator: "false_to_true", body: "return False", after: "return True" },
  { operator: "const_plus_one", body: "return 7", after: "return 8" },
  { operator: "const_minus_one", body: "return 7", after: "return 6" },
  { operator: "false_to_true", body: "a = False", after: "a = True" },
  { operator: "true_to_false", body: "a = True", after: "a = False" },
  { operator: "iter_skip_first", body: "for x in xs: pass", after: "for x in xs[1:]: pass" },
  { operator: "iter_skip_last", body: "for x in xs: pass", after: "for x in xs[:-1]: pass" },
  {
    operator: "iter_skip_first",
    body: "return sum(map(int, str(a)))",
    after: "return sum(map(int, str(a)[1:]))",
  },
  { operator: "swap_receiver", body: "return a.startswith(b)", after: "return b.startswith(a)" },
  { operator: "bound_plus_one", body: "return a < b", after: "return a < b + 1" },
  { operator: "bound_minus_one", body: "return a < b", after: "return a < b - 1" },
  { operator: "drop_or_left", body: "return a == 0 or b == 1", after: "return b == 1" },
  { operator: "drop_or_right", body: "return a == 0 or b == 1", after: "return a == 0" },
  { operator: "max_to_min", body: "return max(xs)", after: "return min(xs)" },
  { operator: "min_to_max", body: "return min(xs)", after: "return max(xs)" },
  { operator: "upper_to_lower", body: "return a.upper()", after: "return a.lower()" },
  { operator: "lower_to_upper", body: "return a.lower()", after: "return a.upper()" },
  { operator: "drop_int", body: "return a * int(b + 1)", after: "return a * (b + 1)" },
  { operator: "drop_sorted", body: "return sorted(xs)", after: "return xs" },
  { operator: "drop_strip", body: "return a.strip()", after: "return a" },
  { operator: "const_plus_one", body: "return a * 2", after: "return a * 3" },
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
  {
    operator: "negate_elif",
    body: "if a > 1:\n    return b\nelif a:\n    return 0\nreturn b",
    after: "elif not a:",
  },
];
