import type { Reject } from "../tables/rejects.ts";
import type { PythonSyntax } from "./python_syntax.ts";
import type { TaskRow } from "../tables/schema.ts";

/** A task as a source reader produces it, before the domain is settled. */
export type TaskDraft = Omit<TaskRow, "domain" | "domain_inferred"> & {
  /** The source's own domain (already one of DOMAINS), or null to infer it. */
  domain: string | null;
};

/** What one source reader returns: tasks in file order, rejects in file order. */
export interface SourceRead {
  tasks: TaskDraft[];
  rejects: Reject[];
  /** Source-specific counts for the report, e.g. HumanEval's split vs whole tests. */
  notes?: Record<string, number>;
}

/** A reject of the tasks stage. */
export function taskReject(source: string, locator: string, reason: string): Reject {
  return { stage: "tasks", source, locator, reason };
}

/**
 * Check a drafted task against the rules every source shares; return the
 * reason it must be rejected, or null. Checks run in a fixed order so the
 * first problem found is the one reported.
 *
 * - query, canonical and entry point are non-empty; there is at least one test;
 * - canonical, setup and every test parse as Python;
 * - the entry point is a function the canonical defines at module level.
 *
 * `oneStatement` also requires each test to be a single module-level
 * statement (the JSONL schema's rule; HumanEval tests kept whole are several).
 */
export function checkTask(
  task: TaskDraft,
  syntax: PythonSyntax,
  oneStatement: boolean,
): string | null {
  if (task.query.trim() === "") return "empty field: query";
  if (task.canonical.trim() === "") return "empty field: canonical";
  if (task.entry_point.trim() === "") return "empty field: entry_point";
  if (task.tests.length === 0) return "empty field: tests";
  const canonicalError = syntax.syntaxError(task.canonical);
  if (canonicalError) return `does not parse: canonical, ${canonicalError}`;
  const setupError = syntax.syntaxError(task.setup);
  if (setupError) return `does not parse: setup, ${setupError}`;
  for (
    const [field, tests] of [["tests", task.tests], ["extra_tests", task.extra_tests]] as const
  ) {
    for (const [i, test] of tests.entries()) {
      if (test.trim() === "") return `empty test: ${field}[${i}]`;
      const error = syntax.syntaxError(test);
      if (error) return `does not parse: ${field}[${i}], ${error}`;
      if (oneStatement) {
        const n = syntax.statementCount(test);
        if (n !== 1) return `not one statement: ${field}[${i}] has ${n} statements`;
      }
    }
  }
  if (!syntax.topLevelFunctions(task.canonical).includes(task.entry_point)) {
    return `entry point not defined: the canonical defines no top-level function ${task.entry_point}`;
  }
  const needed = canonicalNeedsSetup(task, syntax);
  if (needed) {
    return `canonical needs the setup: it uses ${needed}, which only the setup defines ` +
      "(setup runs after the canonical)";
  }
  return null;
}

/**
 * The first name the canonical reads while it runs (at module level, e.g.
 * a decorator or an annotation) that only the setup binds, or null. The
 * oracle runs the code, then the setup, then each test (see `Job` in
 * src/oracle/outcome.ts), as the sources' own harnesses do: MBPP's
 * `test_setup_code` and HumanEval's test imports are test-side code, and
 * MBPP 367 and 927 build their fixture trees from the `Node` class the code
 * defines. Names used only inside function bodies are fine (looked up when
 * a test calls them, after the setup ran).
 */
function canonicalNeedsSetup(task: TaskDraft, syntax: PythonSyntax): string | null {
  if (task.setup.trim() === "") return null;
  const canonical = syntax.boundNames(task.canonical);
  const setup = syntax.boundNames(task.setup);
  if (!canonical || !setup) return null;
  for (const name of syntax.eagerNames(task.canonical)) {
    if (setup.has(name) && !canonical.has(name)) return name;
  }
  return null;
}

/**
 * Compare source ids "naturally": runs of digits compare as numbers, the rest
 * by UTF-16 code units, so `HumanEval/9` < `HumanEval/10` and `2` < `10`.
 */
export function compareIds(a: string, b: string): number {
  const pa = a.match(/\d+|\D+/g) ?? [];
  const pb = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = BigInt(x);
      const ny = BigInt(y);
      if (nx !== ny) return nx < ny ? -1 : 1;
      if (x.length !== y.length) return x.length < y.length ? -1 : 1; // "01" after "1"
      continue;
    }
    return x < y ? -1 : 1;
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
