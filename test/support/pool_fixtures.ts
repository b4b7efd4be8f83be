import type { Outcome } from "../../src/oracle/outcome.ts";
import type { Runtime } from "../../src/oracle/pool.ts";

/** A snippet of a fixture under test/fixtures/oracle, with the outcomes it must get. */
export interface Snippet {
  name: string;
  setup?: string;
  code: string;
  tests: string[];
  expect: string[];
}

const FIXTURES = new URL("../fixtures/oracle/", import.meta.url);

/** The snippets of a fixture file under test/fixtures/oracle. */
export function load(name: string): Snippet[] {
  return JSON.parse(Deno.readTextFileSync(new URL(name, FIXTURES))).snippets;
}

/** Whether `outcome` is one of `expected`'s `|`-separated outcomes (`ERROR:*`: any error). */
export function matches(outcome: Outcome, expected: string): boolean {
  return expected.split("|").some((e) =>
    e === outcome || (e === "ERROR:*" && outcome.startsWith("ERROR:"))
  );
}

/** A job with one passing and one failing test. */
export const NORMAL = {
  setup: "",
  code: "def add(a, b):\n    return a + b\n",
  tests: ["assert add(1, 2) == 3", "assert add(1, 1) == 3"],
};

/** Options of the oracle pool's tests: pools keep workers and timers past a test's end. */
export const options = { sanitizeOps: false, sanitizeResources: false };

/** Register the test `name` once per runtime, named `<name> (<runtime>)`. */
export function testOnEachRuntime(name: string, fn: (runtime: Runtime) => Promise<void>): void {
  for (const runtime of ["native", "pyodide"] as const) {
    Deno.test({ name: `${name} (${runtime})`, ...options, fn: () => fn(runtime) });
  }
}
