/**
 * The tampering corpus of test/fixtures/oracle/tamper.json, as jobs: each
 * technique's snippet followed by honest snippets with the same tests (a
 * wrong one that must fail every test and a right one that must pass every
 * one), so that a technique that forges verdicts, or leaves anything behind
 * in its worker, shows in its own outcomes or in theirs.
 */
import type { Job, Outcome } from "../../src/oracle/outcome.ts";
import { matches } from "./pool_fixtures.ts";

/** One technique of the corpus. */
export interface TamperEntry {
  name: string;
  technique: string;
  code: string;
  tests: string[];
  /** One entry per test: an outcome or `|`-separated alternatives; never `pass` for a technique. */
  expect: string[];
  /** An honest wrong snippet with the same tests: every test FAILs. */
  wrong: string;
  /** An honest right snippet with the same tests: every test passes. */
  right: string;
  /** A limit of the kit's guarantee (README, Sandbox): its tests pass, by design. */
  notGuaranteed: boolean;
}

interface RawEntry {
  name: string;
  technique: string;
  code: string;
  tests?: string[];
  expect: string[];
  wrong?: string;
  right?: string;
}

/** Every entry of the corpus: the techniques, then the documented limits. */
export function tamperCorpus(): TamperEntry[] {
  const raw = JSON.parse(
    Deno.readTextFileSync(new URL("../fixtures/oracle/tamper.json", import.meta.url)),
  ) as {
    default_tests: string[];
    default_wrong: string;
    default_right: string;
    snippets: RawEntry[];
    not_guaranteed: RawEntry[];
  };
  const entry = (e: RawEntry, notGuaranteed: boolean): TamperEntry => ({
    name: e.name,
    technique: e.technique,
    code: e.code,
    tests: e.tests ?? raw.default_tests,
    expect: e.expect,
    wrong: e.wrong ?? raw.default_wrong,
    right: e.right ?? raw.default_right,
    notGuaranteed,
  });
  return [
    ...raw.snippets.map((e) => entry(e, false)),
    ...raw.not_guaranteed.map((e) => entry(e, true)),
  ];
}

/** The role of a job in the interleaved list. */
export type Role = "technique" | "wrong" | "right";

/** Each entry's snippet, then its honest wrong and right snippets, in one list. */
export function interleaved(
  entries: TamperEntry[],
): { entry: TamperEntry; role: Role; job: Job }[] {
  return entries.flatMap((entry) =>
    (["technique", "wrong", "right"] as const).map((role) => ({
      entry,
      role,
      job: {
        setup: "",
        code: role === "technique" ? entry.code : entry[role],
        tests: entry.tests,
      },
    }))
  );
}

/**
 * What is wrong with one job's outcomes, or null: a technique's tests never
 * pass (a limit's always do) and each matches its expectation; an honest
 * wrong snippet FAILs every test, an honest right one passes every test.
 */
export function problem(entry: TamperEntry, role: Role, got: Outcome[]): string | null {
  const want = role === "technique"
    ? entry.expect
    : entry.tests.map(() => role === "wrong" ? "FAIL" : "pass");
  const forged = role === "technique" && !entry.notGuaranteed && got.includes("pass");
  const fits = got.length === want.length && got.every((o, i) => matches(o, want[i]));
  if (!forged && fits) return null;
  const what = role === "technique"
    ? (forged ? "FORGED PASS" : "unexpected outcome")
    : `LEAK into the honest ${role} snippet after it`;
  return `${entry.name}: ${what}: got ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
}
