/**
 * A task source for tasks written as plain Python files, one task per file
 * in a folder (`--source pyfiles:DIR`):
 *
 * ```python
 * # Return the largest of three numbers.
 * def max3(a, b, c):
 *     return max(a, max(b, c))
 *
 * assert max3(1, 2, 3) == 3
 * ```
 *
 * The leading `#` lines are the query, the module-level `assert` lines the
 * tests, the rest the canonical; the entry point is the function the tests
 * call. The domain is left to the keyword rules.
 */
import { basename, join } from "node:path";
import type { Reject } from "../../src/tables/rejects.ts";
import { deriveEntryPoint } from "../../src/tasks/mbpp.ts";
import type { PythonSyntax } from "../../src/tasks/python_syntax.ts";
import type { TaskSource } from "../../src/tasks/source_registry.ts";
import { checkTask, type SourceRead, type TaskDraft, taskReject } from "../../src/tasks/task.ts";

/** Read every `*.py` file of `dir` as a task; a file that is not one becomes a reject. */
export async function readPyFiles(dir: string, syntax: PythonSyntax): Promise<SourceRead> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".py")) names.push(e.name);
  }
  const tasks: TaskDraft[] = [];
  const rejects: Reject[] = [];
  for (const name of names.sort()) {
    const file = join(dir, name);
    const lines = (await Deno.readTextFile(file)).split("\n");
    const first = lines.findIndex((l) => !l.startsWith("#"));
    const head = first < 0 ? lines.length : first;
    const query = lines.slice(0, head).map((l) => l.replace(/^#\s?/, "")).join(" ");
    const body = lines.slice(head);
    const tests = body.filter((l) => l.startsWith("assert "));
    const canonical = body.filter((l) => !l.startsWith("assert ")).join("\n").trim() + "\n";
    const id = basename(name, ".py");
    const task: TaskDraft = {
      task_id: `pyfiles/${id}`,
      source: "pyfiles",
      source_id: id,
      domain: null,
      query,
      entry_point: deriveEntryPoint(canonical, tests, syntax) ?? "",
      canonical,
      setup: "",
      tests,
      extra_tests: [],
      locator: `${file}:1`,
    };
    const problem = checkTask(task, syntax, true);
    if (problem) rejects.push(taskReject("pyfiles", task.locator, problem));
    else tasks.push(task);
  }
  return { tasks, rejects };
}

/** The registry entry: `pyfiles:DIR`. */
export const PYFILES_SOURCE: TaskSource = {
  argument: "<dir>",
  async read(dir, ctx) {
    return { label: "pyfiles", read: await readPyFiles(dir, ctx.syntax) };
  },
};
