import type { Reject } from "../tables/rejects.ts";
import type { SourceRecord } from "./external.ts";
import type { PythonSyntax } from "./python_syntax.ts";
import { checkTask, type SourceRead, type TaskDraft, taskReject } from "./task.ts";

/**
 * The entry point of a task whose source does not name it: among the plain
 * names called in the tests, the ones the code defines as top-level
 * functions; the one called in the most tests wins, ties to the one called
 * first. `null` when the tests call no function the code defines.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { pythonSyntax } from "./python_syntax.ts";
 * const entry = deriveEntryPoint(
 *   "class Pair: ...\ndef max_chain_length(arr, n): ...",
 *   ["assert max_chain_length([Pair(5, 24)], 1) == 1"],
 *   await pythonSyntax(),
 * );
 * strictEqual(entry, "max_chain_length");
 * ```
 */
export function deriveEntryPoint(
  code: string,
  tests: readonly string[],
  syntax: PythonSyntax,
): string | null {
  const defined = new Set(syntax.topLevelFunctions(code));
  const testsCalling = new Map<string, number>();
  for (const test of tests) {
    for (const name of syntax.calledNames(test).keys()) {
      if (defined.has(name)) testsCalling.set(name, (testsCalling.get(name) ?? 0) + 1);
    }
  }
  let best: string | null = null;
  for (const [name, count] of testsCalling) {
    if (best === null || count > testsCalling.get(best)!) best = name;
  }
  return best;
}

/**
 * MBPP records (verified, in id order) as tasks. The code is kept exactly as
 * released (CRLF line endings and tabs included); `text` is the query,
 * `test_list` the tests, `test_setup_code` the setup and
 * `challenge_test_list` the flagged extra tests. The entry point is derived
 * from the tests ({@link deriveEntryPoint}).
 *
 * `test_setup_code` is test-side code: the oracle runs it after the code and
 * before the tests, so 367 and 927, whose setup builds trees from the `Node`
 * class the code defines, run as released.
 */
export function mbppTasks(
  records: readonly SourceRecord[],
  file: string,
  syntax: PythonSyntax,
): SourceRead {
  const tasks: TaskDraft[] = [];
  const rejects: Reject[] = [];
  for (const { line, value } of records) {
    const id = String(value.task_id);
    const locator = `${file}:${line}`;
    const code = value.code as string;
    const tests = value.test_list as string[];
    const codeError = syntax.syntaxError(code);
    if (codeError) {
      rejects.push(taskReject("mbpp", locator, `does not parse: canonical, ${codeError}`));
      continue;
    }
    const entryPoint = deriveEntryPoint(code, tests, syntax);
    if (entryPoint === null) {
      rejects.push(
        taskReject("mbpp", locator, "no entry point: the tests call no function the code defines"),
      );
      continue;
    }
    const task: TaskDraft = {
      task_id: `mbpp/${id}`,
      source: "mbpp",
      source_id: id,
      domain: null,
      query: (value.text as string).trim(),
      entry_point: entryPoint,
      canonical: code,
      setup: value.test_setup_code as string,
      tests,
      extra_tests: value.challenge_test_list as string[],
      locator,
    };
    const problem = checkTask(task, syntax, true);
    if (problem) rejects.push(taskReject("mbpp", locator, problem));
    else tasks.push(task);
  }
  return { tasks, rejects };
}
