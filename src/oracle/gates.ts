/**
 * The oracle's gates, decided from the suites' outcomes alone: which tasks
 * are kept (their canonical passed every test the same way twice), which
 * candidates become distractors, and the `queries`, `corpus` and
 * `validation` rows and rejects that say so.
 *
 * @module
 */
import { sha256Hex } from "../io/hash.ts";
import type { Reject } from "../tables/rejects.ts";
import type { RowOf } from "../io/arrow_table.ts";
import type { CORPUS, MutantRow, QUERIES, VALIDATION } from "../tables/schema.ts";
import { allPass, complete, tampered, type TestOutcome, timeoutOnly } from "./outcome.ts";
import type { SuiteResult } from "./run_suites.ts";
import { byString, type OracleInputs } from "./oracle_inputs.ts";

/** One validation count. */
export type GateCount = RowOf<typeof VALIDATION>;

/** Each task's canonical runs (twice) and the candidates that ran, by snippet id. */
export interface SuiteRuns {
  canonical: Map<string, [SuiteResult, SuiteResult]>;
  candidate: Map<string, SuiteResult>;
}

function firstBad(outcomes: readonly TestOutcome[]): string {
  const i = outcomes.findIndex((o) => o.outcome !== "pass");
  return i < 0 ? "no tests" : `test ${i} ${outcomes[i].outcome}`;
}

function differs(a: readonly TestOutcome[], b: readonly TestOutcome[]): string | null {
  if (a.length !== b.length) return `${a.length} vs ${b.length} outcomes`;
  for (let i = 0; i < a.length; i++) {
    if (a[i].outcome !== b[i].outcome) return `test ${i} ${a[i].outcome} vs ${b[i].outcome}`;
  }
  return null;
}

/**
 * The canonical gate: why a task is rejected (its gate and reject reason), or
 * null when its canonical passed every test the same way twice. Both the
 * candidate rounds and the gate counts ask this, so they cannot disagree.
 */
export function canonicalGate(
  first: readonly TestOutcome[],
  second: readonly TestOutcome[],
): { gate: string; reason: string } | null {
  if (!allPass(first)) {
    return { gate: "canonical_fail", reason: `canonical_fails: ${firstBad(first)}` };
  }
  const flaky = differs(first, second);
  if (flaky !== null) {
    return { gate: "canonical_flaky", reason: `flaky_canonical: ${flaky} between two runs` };
  }
  return null;
}

/**
 * Whether a candidate's outcomes verify it as a distractor: it fails a test,
 * by its own behaviour. One whose run tampered (ERROR:Tamper) failed because
 * the sandbox refused it, which says nothing of its bug: it is rejected
 * (gate `tampered`), and the rounds do not count it either.
 */
export function verifiedDistractor(outcomes: readonly TestOutcome[]): boolean {
  return !allPass(outcomes) && !tampered(outcomes);
}

/**
 * The gates, from the suites' outcomes alone: which tasks are kept (their
 * canonical passed the same way twice), which candidates become distractors,
 * the `queries` and `corpus` rows, the gate counts and the rejects, all in a
 * fixed order whatever order the suites finished in.
 */
export function gateTasks(
  inputs: OracleInputs,
  runs: SuiteRuns,
  maxDistractors: number,
): {
  queries: RowOf<typeof QUERIES>[];
  corpus: RowOf<typeof CORPUS>[];
  validation: GateCount[];
  rejects: Reject[];
} {
  const { tasks, mutantsByTask } = inputs;
  const rejects = [...inputs.rejects];
  const outcomesOf = new Map([...runs.candidate].map(([id, r]) => [id, r.outcomes]));
  const counts = new Map<string, number>();
  const count = (gate: string, source: string, n = 1) => {
    for (const s of [source, "all"]) {
      const key = `${gate}\u0000${s}`;
      counts.set(key, (counts.get(key) ?? 0) + n);
    }
  };
  const queries: RowOf<typeof QUERIES>[] = [];
  const corpus: RowOf<typeof CORPUS>[] = [];
  for (const t of tasks) {
    const src = t.source;
    const muts = mutantsByTask.get(t.task_id) ?? [];
    count("tasks_in", src);
    count("candidates_in", src, muts.length);
    /** Count a gate that drops `locator` (the task or a candidate), and reject it for `reason`. */
    const drop = (gate: string, locator: string, reason: string) => {
      count(gate, src);
      rejects.push({ stage: "oracle", source: src, locator, reason });
    };
    const [first, second] = runs.canonical.get(t.task_id)!;
    const failed = canonicalGate(first.outcomes, second.outcomes);
    if (failed) {
      drop(failed.gate, t.task_id, failed.reason);
      continue;
    }
    count("canonical_pass", src);
    count("candidates_of_kept_tasks", src, muts.length);
    const kept: { m: MutantRow; timeoutOnly: boolean }[] = [];
    for (const m of muts) {
      const outcomes = outcomesOf.get(m.snippet_id);
      if (!outcomes) {
        drop(
          "not_needed",
          m.snippet_id,
          `not_needed: ${maxDistractors} distractors verified before it in the seeded order`,
        );
      } else if (allPass(outcomes)) {
        drop("equivalent", m.snippet_id, "equivalent_mutant: passes every test");
      } else if (tampered(outcomes)) {
        drop(
          "tampered",
          m.snippet_id,
          "tampered: its run reached for the harness or changed shared state (ERROR:Tamper)",
        );
      } else {
        count("verified", src);
        if (!complete(outcomes)) count("stopped_at_timeout", src);
        const flagged = timeoutOnly(outcomes);
        if (flagged) count("verified_timeout_only", src);
        kept.push({ m, timeoutOnly: flagged });
      }
    }
    count("tasks_kept", src);
    count(`tasks_with_distractors:${kept.length}`, src);
    count("distractors_kept", src, kept.length);
    for (const k of kept) {
      count(`bug_type:${k.m.bug_type}`, src);
      if (k.timeoutOnly) count("distractors_timeout_only", src);
    }
    const correctId = `${t.task_id}#c`;
    queries.push({
      query_id: t.task_id,
      task_id: t.task_id,
      source: src,
      domain: t.domain,
      query: t.query,
      entry_point: t.entry_point,
      tests: t.tests ?? [],
      correct_ids: [correctId],
      distractor_ids: kept.map((k) => k.m.snippet_id),
    });
    corpus.push({
      corpus_id: correctId,
      task_id: t.task_id,
      source: src,
      domain: t.domain,
      label: "correct",
      bug_type: null,
      operator: null,
      line: null,
      before: null,
      after: null,
      timeout_only: false,
      code: t.canonical,
      code_sha256: sha256Hex(t.canonical),
    });
    for (const { m, timeoutOnly: flagged } of kept) {
      corpus.push({
        corpus_id: m.snippet_id,
        task_id: t.task_id,
        source: src,
        domain: t.domain,
        label: "incorrect",
        bug_type: m.bug_type,
        operator: m.operator,
        line: m.line,
        before: m.before,
        after: m.after,
        timeout_only: flagged,
        code: m.code,
        code_sha256: m.code_sha256,
      });
    }
  }
  // Every distractor-count bucket appears, even when empty.
  for (let n = 0; n <= maxDistractors; n++) count(`tasks_with_distractors:${n}`, "all", 0);
  queries.sort((a, b) => byString(a.query_id, b.query_id));
  corpus.sort((a, b) => byString(a.task_id, b.task_id) || byString(a.corpus_id, b.corpus_id));
  const validation: GateCount[] = [...counts.entries()].map(([key, n]) => {
    const [gate, source] = key.split("\u0000");
    return { gate, source, count: n };
  }).sort((a, b) => byString(a.source, b.source) || byString(a.gate, b.gate));
  rejects.sort((a, b) => byString(a.locator, b.locator) || byString(a.reason, b.reason));
  return { queries, corpus, validation, rejects };
}
