/**
 * The oracle's vocabulary, shared by both runtimes: a job is one snippet's
 * test suite, an outcome is what one test did.
 */

/** What one test did: passed, failed an assertion, ran out of time, or raised. */
export type Outcome = "pass" | "FAIL" | "TIMEOUT" | `ERROR:${string}`;

/** One test's outcome and its elapsed time in milliseconds. */
export interface TestOutcome {
  outcome: Outcome;
  ms: number;
}

/** One snippet's suite: setup, then code, then each test statement on its own. */
export interface Job {
  setup: string;
  code: string;
  tests: string[];
}

/** Outcome of a test whose worker died under it (crash, os-level exit, fatal error). */
export const CRASH: Outcome = "ERROR:Crash";

/** True when every test passed (an empty suite does not pass). */
export function allPass(outcomes: readonly TestOutcome[]): boolean {
  return outcomes.length > 0 && outcomes.every((o) => o.outcome === "pass");
}

/** True when the suite failed only by TIMEOUT (no FAIL, no ERROR). */
export function timeoutOnly(outcomes: readonly TestOutcome[]): boolean {
  return outcomes.some((o) => o.outcome === "TIMEOUT") &&
    outcomes.every((o) => o.outcome === "pass" || o.outcome === "TIMEOUT");
}

/** Validate an outcome string coming back from a worker. */
export function asOutcome(value: unknown): Outcome {
  if (value === "pass" || value === "FAIL" || value === "TIMEOUT") return value;
  if (typeof value === "string" && /^ERROR:[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    return value as Outcome;
  }
  return CRASH;
}
