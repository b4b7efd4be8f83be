import { strictEqual } from "node:assert/strict";
import type { Candidate } from "../../src/mutate/mutate_code.ts";

/** The one candidate with this operator whose edited line is `after`; fails otherwise. */
export function only(candidates: Candidate[], operator: string, after?: string): Candidate {
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

export function afters(candidates: Candidate[], operator: string): string[] {
  return candidates.filter((c) => c.operator === operator).map((c) => c.after);
}
