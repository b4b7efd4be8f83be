import { type MutationComparison as MutationColumns } from "../tables/release.ts";
import { type Candidate, mutateCodeWith } from "../mutate/mutate_code.ts";
import type { PythonParser } from "../common/python_parser.ts";
import type { ReleaseDistractor } from "../tasks/release_tasks.ts";

/** The `release_mutations` table (spec in src/tables/release.ts). */

/** One row of {@link RELEASE_MUTATIONS}, its `reproduced` narrowed to the values written. */
export type MutationComparison = Omit<MutationColumns, "reproduced"> & {
  reproduced: "exact" | "trailing_whitespace" | "no";
};

/** Per released bug type: how many distractors the engine reproduced. */
export interface MutationSummaryRow {
  bug_type: string;
  released: number;
  exact: number;
  trailing_whitespace: number;
  same_bug_type: number;
}

/**
 * Run the kit's mutation engine over each released canonical and look for
 * each released distractor among its candidates: the identical code, else
 * the same code modulo trailing whitespace (line ends and the file's final
 * newlines), and under which bug type the engine files it. When several
 * candidates match, one of the released bug type is preferred.
 */
export function compareMutants(
  parser: PythonParser,
  canonicals: ReadonlyMap<string, string>,
  distractors: readonly ReleaseDistractor[],
): MutationComparison[] {
  const cache = new Map<string, Candidate[]>();
  const candidatesOf = (taskId: string): Candidate[] => {
    let c = cache.get(taskId);
    if (!c) {
      const result = mutateCodeWith(parser, canonicals.get(taskId) ?? "");
      cache.set(taskId, c = result.candidates);
    }
    return c;
  };
  return distractors.map((d) => {
    const candidates = candidatesOf(d.task_id);
    const pick = (found: Candidate[]) =>
      found.find((c) => c.bug_type === d.bug_type) ?? found[0] ?? null;
    let match = pick(candidates.filter((c) => c.code === d.code));
    let reproduced: MutationComparison["reproduced"] = match ? "exact" : "no";
    if (!match) {
      const want = trimTrailing(d.code);
      match = pick(candidates.filter((c) => trimTrailing(c.code) === want));
      if (match) reproduced = "trailing_whitespace";
    }
    return {
      task_id: d.task_id,
      corpus_id: d.corpus_id,
      released_bug_type: d.bug_type,
      reproduced,
      engine_bug_type: match?.bug_type ?? null,
      engine_operator: match?.operator ?? null,
      same_bug_type: match ? match.bug_type === d.bug_type : null,
      candidates: candidates.length,
    };
  });
}

/** Counts per released bug type, in first-seen order sorted by name. */
export function summarizeMutants(rows: readonly MutationComparison[]): MutationSummaryRow[] {
  const by = new Map<string, MutationSummaryRow>();
  for (const r of rows) {
    const s = by.get(r.released_bug_type) ??
      {
        bug_type: r.released_bug_type,
        released: 0,
        exact: 0,
        trailing_whitespace: 0,
        same_bug_type: 0,
      };
    s.released++;
    if (r.reproduced === "exact") s.exact++;
    if (r.reproduced === "trailing_whitespace") s.trailing_whitespace++;
    if (r.same_bug_type) s.same_bug_type++;
    by.set(r.released_bug_type, s);
  }
  return [...by.values()].sort((a, b) => a.bug_type < b.bug_type ? -1 : 1);
}

/** Code with trailing whitespace removed from every line and from the end. */
export function trimTrailing(code: string): string {
  return code.split("\n").map((l) => l.replace(/\s+$/, "")).join("\n").replace(/\n+$/, "");
}
