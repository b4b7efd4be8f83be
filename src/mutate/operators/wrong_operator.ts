import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import type { Node } from "../../common/python_parser.ts";
import { operatorOf } from "./syntax.ts";

/** Binary arithmetic and bitwise operators and their wrong replacements. */
const BINARY: Record<string, [string, string][]> = {
  "+": [["-", "add_to_sub"]],
  "-": [["+", "sub_to_add"]],
  "*": [["/", "mul_to_div"], ["//", "mul_to_floordiv"]],
  "/": [["*", "div_to_mul"], ["//", "div_to_floordiv"]],
  "//": [["/", "floordiv_to_div"], ["*", "floordiv_to_mul"]],
  "%": [["//", "mod_to_floordiv"]],
  "**": [["*", "pow_to_mul"]],
  "&": [["|", "bitand_to_bitor"]],
  "|": [["&", "bitor_to_bitand"]],
  "^": [["|", "xor_to_bitor"]],
  "<<": [[">>", "lshift_to_rshift"]],
  ">>": [["<<", "rshift_to_lshift"]],
};

/**
 * Unary operators: bitwise `~x` (which is `-x - 1`) confused with negation.
 * Not the other way: in arithmetic code `-x` → `~x` is no slip anyone makes.
 */
const UNARY: Record<string, [string, string][]> = {
  "~": [["-", "invert_to_neg"]],
};

const BOOLEAN: Record<string, [string, string][]> = {
  "and": [["or", "and_to_or"]],
  "or": [["and", "or_to_and"]],
};

const AUGMENTED: Record<string, [string, string][]> = {
  "+=": [["-=", "iadd_to_isub"]],
  "-=": [["+=", "isub_to_iadd"]],
  "*=": [["/=", "imul_to_idiv"], ["//=", "imul_to_ifloordiv"]],
  "/=": [["*=", "idiv_to_imul"], ["//=", "idiv_to_ifloordiv"]],
  "//=": [["/=", "ifloordiv_to_idiv"], ["*=", "ifloordiv_to_imul"]],
  "%=": [["//=", "imod_to_ifloordiv"]],
  "&=": [["|=", "iand_to_ior"]],
  "|=": [["&=", "ior_to_iand"]],
  "^=": [["|=", "ixor_to_ior"]],
  "<<=": [[">>=", "ilshift_to_irshift"]],
  ">>=": [["<<=", "irshift_to_ilshift"]],
};

/** Literal strings, lists and tuples: on them `+` and `*` concatenate and repeat. */
const SEQUENCES = new Set([
  "concatenated_string",
  "dictionary",
  "list",
  "list_comprehension",
  "string",
  "tuple",
]);

/**
 * Whether a binary operation has a literal sequence operand: `"a" - s` or
 * `[0] / k` only raise TypeError, a crash rather than a plausible slip.
 */
function sequenceOperand(node: Node): boolean {
  return SEQUENCES.has(node.childForFieldName("left")?.type ?? "") ||
    SEQUENCES.has(node.childForFieldName("right")?.type ?? "");
}

/**
 * `wrong_operator` sites: the operator token of every binary operation
 * (`+`↔`-`, `*`→`/` or `//`, `//`↔`/`, `%`→`//`, `**`→`*`, bitwise and
 * shifts; not when an operand is a literal string, list or tuple), `~x` →
 * `-x`, `and`↔`or`, and augmented assignments (`+=`↔`-=`, ...). Unary minus
 * is a different node type, so `-x` is never read as a subtraction.
 */
export function wrongOperatorEdits(ctx: SiteContext): ProposedEdit[] {
  const out: ProposedEdit[] = [];
  const sites: [string, Record<string, [string, string][]>][] = [
    ["binary_operator", BINARY],
    ["unary_operator", UNARY],
    ["boolean_operator", BOOLEAN],
    ["augmented_assignment", AUGMENTED],
  ];
  for (const [type, table] of sites) {
    for (const node of ctx.nodes.get(type) ?? []) {
      const token = operatorOf(node);
      if (!token) continue;
      if (type === "binary_operator" && sequenceOperand(node)) continue;
      for (const [text, operator] of table[token.type] ?? []) {
        out.push({
          bug_type: "wrong_operator",
          operator,
          extension: false,
          start: token.startIndex,
          end: token.endIndex,
          text,
        });
      }
    }
  }
  return out;
}

/** The `wrong_operator` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongOperatorOperator: OperatorEntry = {
  bug_type: "wrong_operator",
  extension: false,
  meaning:
    "An arithmetic, bitwise, boolean or augmented-assignment operator replaced; a bitwise `~x` written as `-x`.",
  operators: [
    "add_to_sub",
    "and_to_or",
    "bitand_to_bitor",
    "bitor_to_bitand",
    "div_to_floordiv",
    "div_to_mul",
    "floordiv_to_div",
    "floordiv_to_mul",
    "iadd_to_isub",
    "iand_to_ior",
    "idiv_to_ifloordiv",
    "idiv_to_imul",
    "ifloordiv_to_idiv",
    "ifloordiv_to_imul",
    "ilshift_to_irshift",
    "imod_to_ifloordiv",
    "imul_to_idiv",
    "imul_to_ifloordiv",
    "invert_to_neg",
    "ior_to_iand",
    "irshift_to_ilshift",
    "isub_to_iadd",
    "ixor_to_ior",
    "lshift_to_rshift",
    "mod_to_floordiv",
    "mul_to_div",
    "mul_to_floordiv",
    "or_to_and",
    "pow_to_mul",
    "rshift_to_lshift",
    "sub_to_add",
    "xor_to_bitor",
  ],
  edits: wrongOperatorEdits,
  examples: [
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
  ],
};
