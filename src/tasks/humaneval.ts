import type { Node } from "web-tree-sitter";
import type { Reject } from "../tables/rejects.ts";
import type { SourceRecord } from "./external.ts";
import { functionDocstring, type PythonSyntax, renameIdentifier } from "./python_syntax.ts";
import { checkTask, type SourceRead, type TaskDraft, taskReject } from "./task.ts";

/** HumanEval's tests for one task, split into asserts or kept whole. */
export interface HumanEvalTests {
  /** Imports and the METADATA dict from the test code (split form), else "". */
  setup: string;
  tests: string[];
  /** True when `check(candidate)` was a flat list of asserts and was split. */
  split: boolean;
}

/**
 * Turn a HumanEval `test` field into test statements.
 *
 * Split form, when the test code holds only imports, a `METADATA = ...`
 * assignment and `def check(candidate):` whose body is only asserts (and
 * comments): each assert becomes one test with `candidate` renamed to the
 * entry point (identifier nodes only, never text inside strings), and the
 * imports and METADATA become the setup.
 *
 * Whole form, otherwise (loops, helpers, local variables, a bare `print`):
 * one test, the test code followed by `check(<entry_point>)`.
 */
export function humanEvalTests(
  testCode: string,
  entryPoint: string,
  syntax: PythonSyntax,
): HumanEvalTests {
  const whole: HumanEvalTests = {
    setup: "",
    tests: [`${testCode.replace(/\s+$/, "")}\n\n\ncheck(${entryPoint})\n`],
    split: false,
  };
  return syntax.withTree(testCode, (root) => {
    if (root.hasError) return whole;
    const setup: string[] = [];
    let check: Node | null = null;
    for (const statement of root.namedChildren) {
      if (!statement || statement.type === "comment") continue;
      if (isImport(statement) || isMetadata(statement)) {
        setup.push(statement.text);
        continue;
      }
      if (
        statement.type === "function_definition" &&
        statement.childForFieldName("name")?.text === "check" && !check
      ) {
        check = statement;
        continue;
      }
      return whole;
    }
    if (!check) return whole;
    const params = check.childForFieldName("parameters")?.namedChildren ?? [];
    if (params.length !== 1 || params[0]?.type !== "identifier") return whole;
    const candidate = params[0].text;
    const body = check.childForFieldName("body")?.namedChildren ?? [];
    const asserts = body.filter((s) => s && s.type !== "comment") as Node[];
    if (asserts.length === 0 || asserts.some((s) => s.type !== "assert_statement")) return whole;
    return {
      setup: setup.length > 0 ? setup.join("\n") + "\n" : "",
      tests: asserts.map((a) => renameIdentifier(a, candidate, entryPoint)),
      split: true,
    };
  });
}

function isImport(node: Node): boolean {
  return node.type === "import_statement" || node.type === "import_from_statement";
}

function isMetadata(node: Node): boolean {
  if (node.type !== "expression_statement" || node.namedChildCount !== 1) return false;
  const assignment = node.namedChild(0);
  return assignment?.type === "assignment" &&
    assignment.childForFieldName("left")?.text === "METADATA";
}

/**
 * The query of a HumanEval task: the entry point's docstring, dedented, with
 * doctest examples (`>>>` lines and the output lines under them) removed, a
 * dangling "Example(s):" / "For example:" header dropped, runs of blank lines
 * collapsed and the ends trimmed. Prose examples without `>>>` are kept.
 * `null` when the entry point has no docstring.
 */
export function humanEvalQuery(
  code: string,
  entryPoint: string,
  syntax: PythonSyntax,
): string | null {
  const docstring = syntax.withTree(code, (root) => {
    for (const def of root.descendantsOfType("function_definition")) {
      if (def?.childForFieldName("name")?.text === entryPoint) return functionDocstring(def);
    }
    return null;
  });
  if (docstring === null) return null;
  const query = cleanDocstring(docstring);
  return query === "" ? null : query;
}

/** Dedent a docstring and strip its doctest examples (see {@link humanEvalQuery}). */
export function cleanDocstring(docstring: string): string {
  const lines = dedent(docstring.replace(/\r\n?/g, "\n")).split("\n");
  const kept: string[] = [];
  let inExample = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith(">>>")) {
      inExample = true;
      continue;
    }
    if (inExample && trimmed !== "") continue; // the expected output of the example
    inExample = false;
    kept.push(line.replace(/\s+$/, ""));
  }
  // Drop a header left with nothing under it, then collapse blank runs.
  while (kept.length > 0 && kept[kept.length - 1].trim() === "") kept.pop();
  while (
    kept.length > 0 && /^(for )?(examples?|e\.g\.)\s*:?$/i.test(kept[kept.length - 1].trim())
  ) {
    kept.pop();
    while (kept.length > 0 && kept[kept.length - 1].trim() === "") kept.pop();
  }
  return kept.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

/** Remove the common leading whitespace of the non-blank lines (after the first). */
function dedent(text: string): string {
  const lines = text.split("\n");
  const first = lines[0].trim();
  const rest = lines.slice(1);
  let indent = Infinity;
  for (const line of rest) {
    if (line.trim() === "") continue;
    indent = Math.min(indent, line.length - line.trimStart().length);
  }
  if (!Number.isFinite(indent)) indent = 0;
  return [first, ...rest.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))]
    .join("\n");
}

/**
 * HumanEval records (verified, in id order) as tasks: canonical = prompt +
 * canonical_solution (the signature stays with the code), query = the entry
 * point's docstring ({@link humanEvalQuery}), tests per {@link humanEvalTests}.
 * Notes count how many tasks had their tests split vs kept whole.
 */
export function humanEvalTasks(
  records: readonly SourceRecord[],
  file: string,
  syntax: PythonSyntax,
): SourceRead {
  const tasks: TaskDraft[] = [];
  const rejects: Reject[] = [];
  let split = 0;
  let whole = 0;
  for (const { line, value } of records) {
    const sourceId = value.task_id as string;
    const locator = `${file}:${line}`;
    const entryPoint = value.entry_point as string;
    const canonical = (value.prompt as string) + (value.canonical_solution as string);
    const reject = (reason: string) => rejects.push(taskReject("humaneval", locator, reason));
    const codeError = syntax.syntaxError(canonical);
    if (codeError) {
      reject(`does not parse: canonical, ${codeError}`);
      continue;
    }
    const query = humanEvalQuery(canonical, entryPoint, syntax);
    if (query === null) {
      reject(`no docstring: the entry point ${entryPoint} has no docstring to use as the query`);
      continue;
    }
    const testCode = value.test as string;
    const testError = syntax.syntaxError(testCode);
    if (testError) {
      reject(`does not parse: test, ${testError}`);
      continue;
    }
    const form = humanEvalTests(testCode, entryPoint, syntax);
    const task: TaskDraft = {
      task_id: `humaneval/${sourceId.replace(/^HumanEval\//, "")}`,
      source: "humaneval",
      source_id: sourceId,
      domain: null,
      query,
      entry_point: entryPoint,
      canonical,
      setup: form.setup,
      tests: form.tests,
      extra_tests: [],
      locator,
    };
    const problem = checkTask(task, syntax, form.split);
    if (problem) {
      reject(problem);
      continue;
    }
    tasks.push(task);
    if (form.split) split++;
    else whole++;
  }
  return { tasks, rejects, notes: { tests_split: split, tests_whole: whole } };
}
