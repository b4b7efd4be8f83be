import { pythonSyntax } from "../../tasks/python_syntax.ts";
import { renameIdentifier } from "../../tasks/python_syntax.ts";
import type { TaskRow } from "../../tables/schema.ts";

/** One line of a task JSONL file in the schema of data/TASKS_SCHEMA.md. */
export interface TaskLine {
  task_id: string;
  query: string;
  entry_point: string;
  canonical: string;
  tests: string[];
  setup: string;
  domain: string;
  extra_tests: string[];
}

/**
 * The generated task set at `scale` × the base tasks: task j is copy
 * ⌊j / n⌋ of base task j mod n, for j < round(scale × n). Copy 0 is the
 * base task as it is (so scale 1 is the base benchmark itself); copy i > 0
 * renames the entry point `f` to `f_v<i>` in the canonical, the setup, the
 * tests and the query (identifiers only in code, so strings and attributes
 * keep their text), which gives distinct texts, distinct mutants and
 * distinct execution-cache keys while every test still means what it did.
 *
 * A test that is several statements (HumanEval's kept-whole checks) becomes
 * one `exec("...")` statement, since the JSONL schema wants one statement
 * per test; exec at module level runs in the module's globals, as before.
 *
 * `growthTasks(rows, 3)` gives `3 × rows.length` tasks.
 */
export async function growthTasks(base: readonly TaskRow[], scale: number): Promise<TaskLine[]> {
  if (!(scale > 0)) throw new Error(`scale must be > 0, got ${scale}`);
  const syntax = await pythonSyntax();
  const rename = (code: string, from: string, to: string) =>
    code === "" ? code : syntax.withTree(code, (root) => renameIdentifier(root, from, to));
  const total = Math.round(scale * base.length);
  const out: TaskLine[] = [];
  for (let j = 0; j < total; j++) {
    const task = base[j % base.length];
    const copy = Math.floor(j / base.length);
    const from = task.entry_point;
    const to = copy === 0 ? from : `${from}_v${copy}`;
    const code = (text: string) => from === to ? text : rename(text, from, to);
    const oneStatement = (test: string) =>
      syntax.statementCount(test) === 1 ? test : `exec(${JSON.stringify(test)})`;
    out.push({
      task_id: `${task.task_id}.v${copy}`,
      query: from === to ? task.query : task.query.replace(wordPattern(from), to),
      entry_point: to,
      canonical: code(task.canonical),
      tests: task.tests.map((t) => oneStatement(code(t))),
      setup: code(task.setup),
      domain: task.domain,
      extra_tests: task.extra_tests.map((t) => oneStatement(code(t))),
    });
  }
  return out;
}

/** The task lines as JSONL text (one object per line, fixed key order). */
export function taskJsonl(lines: readonly TaskLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function wordPattern(name: string): RegExp {
  // Identifiers hold only word characters, so no escaping is needed beyond \b.
  return new RegExp(`\\b${name}\\b`, "g");
}
