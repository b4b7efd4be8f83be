/**
 * The oracle's vocabulary, shared by both runtimes: a job is one snippet's
 * test suite, an outcome is what one test did.
 */

/**
 * What one test did: passed, failed an assertion, ran out of time, or raised;
 * `NOT_RUN` when its suite was stopped at an earlier TIMEOUT (see
 * {@link Job.stopAtTimeout}).
 */
export type Outcome = "pass" | "FAIL" | "TIMEOUT" | "NOT_RUN" | `ERROR:${string}`;

/**
 * One test's outcome, its elapsed (wall) time and the CPU time its thread
 * used, in milliseconds. The per-test limit counts CPU time (see
 * CONTRIBUTING, "Verdicts and the clock"); `cpuMs` is absent where nothing
 * measured it (a test that never ran, an old cache line).
 */
export interface TestOutcome {
  outcome: Outcome;
  ms: number;
  cpuMs?: number;
}

/** One snippet's suite: code, then setup, then each test statement on its own. */
export interface Job {
  setup: string;
  code: string;
  tests: string[];
  /**
   * Stop the suite at its first TIMEOUT and record the tests after it as
   * NOT_RUN. For candidates only: one TIMEOUT already makes a candidate fail,
   * a snippet that loops usually loops on every test, and waiting out each of
   * them was most of the oracle's time. Canonicals run every test.
   */
  stopAtTimeout?: boolean;
}

/** Outcome of a test whose worker died under it (crash, os-level exit, fatal error). */
export const CRASH: Outcome = "ERROR:Crash";

/**
 * Outcome of every test of a job that tried what only tampering needs
 * (reaching for the harness: gc introspection, trace, profile or audit hooks,
 * signal handlers, the JavaScript bridge, rewriting functions' code) or left
 * shared state changed (builtins, a module's or class's namespace, the
 * module table, its own code reachable from any of them). See driver.py.
 */
export const TAMPER: Outcome = "ERROR:Tamper";

/** True when any test's outcome is {@link TAMPER}: the suite's run tried to forge or leak. */
export function tampered(outcomes: readonly TestOutcome[]): boolean {
  return outcomes.some((o) => o.outcome === TAMPER);
}

/** True when every test passed (an empty suite does not pass). */
export function allPass(outcomes: readonly TestOutcome[]): boolean {
  return outcomes.length > 0 && outcomes.every((o) => o.outcome === "pass");
}

/** Outcome of a test after its suite was stopped at a TIMEOUT: never executed. */
export const NOT_RUN: Outcome = "NOT_RUN";

/**
 * True when the suite failed only by TIMEOUT: no FAIL or ERROR among the
 * tests that ran (tests after a stopping TIMEOUT are NOT_RUN and unknown).
 */
export function timeoutOnly(outcomes: readonly TestOutcome[]): boolean {
  return outcomes.some((o) => o.outcome === "TIMEOUT") &&
    outcomes.every((o) => o.outcome === "pass" || o.outcome === "TIMEOUT" || o.outcome === NOT_RUN);
}

/** True when every test ran (no NOT_RUN): the result serves a suite that must run them all. */
export function complete(outcomes: readonly TestOutcome[]): boolean {
  return outcomes.every((o) => o.outcome !== NOT_RUN);
}

/**
 * The outcomes a suite stopped at its first TIMEOUT has, derived from a
 * complete or stopped result: the same up to that TIMEOUT, NOT_RUN (0 ms) after.
 */
export function stoppedAtTimeout(outcomes: readonly TestOutcome[]): TestOutcome[] {
  const i = outcomes.findIndex((o) => o.outcome === "TIMEOUT");
  if (i < 0) return [...outcomes];
  return outcomes.map((o, k) => (k <= i ? o : { outcome: NOT_RUN, ms: 0, cpuMs: 0 }));
}

/**
 * A worker's `[outcome, ms, cpuMs]` triples (or `[outcome, ms]` pairs),
 * validated (a malformed list throws).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { outcomesFromWire } from "./outcome.ts";
 * deepStrictEqual(outcomesFromWire([["pass", 1.5, 10], ["FAIL", 2], ["pass", 0.2, null]]), [
 *   { outcome: "pass", ms: 1.5, cpuMs: 10 },
 *   { outcome: "FAIL", ms: 2 },
 *   { outcome: "pass", ms: 0.2 },
 * ]);
 * ```
 */
export function outcomesFromWire(
  items: readonly (readonly unknown[])[],
): TestOutcome[] {
  return items.map((item) => {
    const outcome: TestOutcome = { outcome: asOutcome(item[0]), ms: Number(item[1]) || 0 };
    // null: not measured (a phase too short for the worker to read its CPU time).
    if (item.length > 2 && item[2] !== null) outcome.cpuMs = Number(item[2]) || 0;
    return outcome;
  });
}

/** An outcome as a worker and the cache write it: `[outcome, ms]`, plus CPU ms when measured. */
export function outcomeToWire(o: TestOutcome): [string, number] | [string, number, number] {
  return o.cpuMs === undefined ? [o.outcome, o.ms] : [o.outcome, o.ms, o.cpuMs];
}

/** Validate an outcome string coming back from a worker. */
export function asOutcome(value: unknown): Outcome {
  if (value === "pass" || value === "FAIL" || value === "TIMEOUT" || value === "NOT_RUN") {
    return value;
  }
  if (typeof value === "string" && /^ERROR:[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    return value as Outcome;
  }
  return CRASH;
}
