import type { OperatorEntry, ProposedEdit, SiteContext } from "../operator_entry.ts";
import { calleeName, importedNames, methodName, replaceNode, shadowed } from "./syntax.ts";

/**
 * Builtins, functions and methods with a twin of the same shape that a slip
 * calls instead: `max`↔`min`, `s.upper()`↔`s.lower()`, `math.floor`↔`math.ceil`.
 */
const TWINS: Record<string, string> = {
  all: "any",
  any: "all",
  append: "extend",
  bisect_left: "bisect_right",
  bisect_right: "bisect_left",
  capitalize: "title",
  chr: "ord",
  cos: "sin",
  extend: "append",
  intersection: "union",
  isalnum: "isalpha",
  issubset: "issuperset",
  issuperset: "issubset",
  keys: "values",
  log10: "log",
  log2: "log10",
  match: "search",
  search: "match",
  sin: "cos",
  title: "capitalize",
  union: "intersection",
  values: "keys",
  ceil: "floor",
  endswith: "startswith",
  find: "rfind",
  floor: "ceil",
  index: "rindex",
  isdigit: "isalpha",
  isalpha: "isdigit",
  islower: "isupper",
  isupper: "islower",
  lower: "upper",
  lstrip: "rstrip",
  max: "min",
  min: "max",
  nlargest: "nsmallest",
  nsmallest: "nlargest",
  ord: "chr",
  rfind: "find",
  rindex: "index",
  rstrip: "lstrip",
  startswith: "endswith",
  upper: "lower",
};

/**
 * `wrong_call` (extension): a function or method called instead of its twin
 * (`max`↔`min`, `upper`↔`lower`, `startswith`↔`endswith`, see `TWINS`).
 */
export function wrongCallEdits(ctx: SiteContext): ProposedEdit[] {
  const { code, nodes } = ctx;
  const out: ProposedEdit[] = [];
  const imported = importedNames(ctx);
  for (const call of nodes.get("call") ?? []) {
    const fn = call.childForFieldName("function");
    const nameNode = fn?.type === "identifier" ? fn : fn?.childForFieldName("attribute");
    const name = calleeName(code, call) ?? methodName(code, call);
    // A local function or variable named `max` is the canonical's own; only builtins and
    // imported or method names have the twin meant.
    const twin = name !== undefined && Object.hasOwn(TWINS, name) ? TWINS[name] : undefined;
    if (nameNode && twin && (fn?.type === "attribute" || !shadowed(code, name!, imported))) {
      out.push(replaceNode("wrong_call", `${name}_to_${twin}`, true, nameNode, twin));
    }
  }
  return out;
}

/** The `wrong_call` entry of the operator registry (src/mutate/operator_registry.ts). */
export const wrongCallOperator: OperatorEntry = {
  bug_type: "wrong_call",
  extension: true,
  meaning:
    "Extension: a function or method called instead of its twin (`max`↔`min`, `upper`↔`lower`, `startswith`↔`endswith`, …).",
  operators: Object.entries(TWINS).map(([name, twin]) => `${name}_to_${twin}`),
  edits: wrongCallEdits,
  examples: [
    { operator: "max_to_min", body: "return max(xs)", after: "return min(xs)" },
    { operator: "min_to_max", body: "return min(xs)", after: "return max(xs)" },
    { operator: "upper_to_lower", body: "return a.upper()", after: "return a.lower()" },
    { operator: "lower_to_upper", body: "return a.lower()", after: "return a.upper()" },
    { operator: "append_to_extend", body: "xs.append(a)", after: "xs.extend(a)" },
    { operator: "ord_to_chr", body: "return ord(a) - 96", after: "return chr(a) - 96" },
  ],
};
