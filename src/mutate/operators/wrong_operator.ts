import { operatorOf, type ProposedEdit, type SiteContext } from "./_syntax.ts";

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

/**
 * `wrong_operator` sites: the operator token of every binary operation
 * (`+`↔`-`, `*`→`/` or `//`, `//`↔`/`, `%`→`//`, `**`→`*`, bitwise and
 * shifts), `and`↔`or`, and augmented assignments (`+=`↔`-=`, ...). Unary
 * minus is a different node type, so `-x` is never read as a subtraction.
 */
export function wrongOperatorEdits(ctx: SiteContext): ProposedEdit[] {
  const out: ProposedEdit[] = [];
  const sites: [string, Record<string, [string, string][]>][] = [
    ["binary_operator", BINARY],
    ["boolean_operator", BOOLEAN],
    ["augmented_assignment", AUGMENTED],
  ];
  for (const [type, table] of sites) {
    for (const node of ctx.nodes.get(type) ?? []) {
      const token = operatorOf(node);
      if (!token) continue;
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
