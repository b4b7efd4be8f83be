import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";

/** Each comparison operator and what it becomes, with the operator's name. */
const SWAPS: Record<string, [string, string]> = {
  "<": ["<=", "lt_to_le"],
  "<=": ["<", "le_to_lt"],
  ">": [">=", "gt_to_ge"],
  ">=": [">", "ge_to_gt"],
  "==": ["!=", "eq_to_ne"],
  "!=": ["==", "ne_to_eq"],
  "in": ["not in", "in_to_not_in"],
  "not in": ["in", "not_in_to_in"],
  "is": ["is not", "is_to_is_not"],
  "is not": ["is", "is_not_to_is"],
};

/**
 * `wrong_comparison` sites: every operator token of a comparison (each link
 * of a chain separately): `<`↔`<=`, `>`↔`>=`, `==`↔`!=`, `in`↔`not in`,
 * `is`↔`is not`. Only comparison nodes are visited, so the `in` of a `for`
 * and operators inside strings are never touched.
 */
export function wrongComparisonEdits(ctx: SiteContext): ProposedEdit[] {
  const out: ProposedEdit[] = [];
  for (const cmp of ctx.nodes.get("comparison_operator") ?? []) {
    for (const token of cmp.children) {
      if (!token || token.isNamed) continue;
      const swap = SWAPS[token.type];
      if (!swap) continue;
      out.push({
        bug_type: "wrong_comparison",
        operator: swap[1],
        extension: false,
        start: token.startIndex,
        end: token.endIndex,
        text: swap[0],
      });
    }
  }
  return out;
}

/** The `wrong_comparison` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongComparisonOperator: OperatorEntry = {
  bug_type: "wrong_comparison",
  extension: false,
  meaning: "A comparison operator replaced by its near twin.",
  operators: Object.values(SWAPS).map(([, name]) => name),
  edits: wrongComparisonEdits,
  examples: [
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
  ],
};
