import { below, xoshiro128ss } from "../common/rng.ts";
import { fnv1a32 } from "../score/tie_break.ts";
import type { TestSplitRow as TestSplitColumns } from "../tables/rerank.ts";

/**
 * One row of the `test_split` table, its two text columns narrowed to the
 * values this module writes.
 */
export type TestSplitRow = Omit<TestSplitColumns, "origin" | "how"> & {
  /** `suite`: one of the task's tests; `docstring`: an example from the query's docstring. */
  origin: "suite" | "docstring";
  /** How the task's visible tests were chosen: from its docstring, or a seeded split of its suite. */
  how: "docstring" | "split";
};

/** How many of a task's tests a seeded split keeps visible (the default). */
export const VISIBLE_SHARE = 1;

/**
 * The examples of a docstring (`>>> expr` followed by its expected output)
 * as assert statements `assert (expr) == (expected)`. An example whose
 * expression does not call the entry point, that has no expected output or
 * whose expected output is not a literal value (a traceback, a printed
 * line) is left out. `...` lines continue the expression; the expected
 * output runs to the next blank line, prompt or closing triple quote, so
 * `text` may be a whole function whose docstring holds the examples.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(docstringExamples(">>> add(1, 2)\n3", "add"), ["assert (add(1, 2)) == (3)"]);
 * ```
 */
export function docstringExamples(query: string, entryPoint: string): string[] {
  const lines = query.split("\n").map((l) => l.trim());
  const calls = new RegExp(`(^|[^\\w.])${escapeRegExp(entryPoint)}\\s*\\(`);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith(">>>")) continue;
    let expr = lines[i].slice(3).trim();
    while (i + 1 < lines.length && lines[i + 1].startsWith("...")) {
      expr += "\n" + lines[++i].slice(3).trim();
    }
    const expected: string[] = [];
    while (i + 1 < lines.length && lines[i + 1] !== "" && !lines[i + 1].startsWith(">>>")) {
      // In code, the docstring's closing quotes end the output (and the docstring).
      const close = lines[i + 1].search(/"""|'''/);
      if (close >= 0) {
        if (close > 0) expected.push(lines[i + 1].slice(0, close));
        i++;
        break;
      }
      expected.push(lines[++i]);
    }
    const want = expected.join(" ").trim();
    if (!calls.test(expr) || want === "" || !isLiteral(want)) continue;
    out.push(`assert (${expr}) == (${want})`);
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// A Python literal as doctest prints it: numbers, strings, True/False/None and
// brackets of them. Tracebacks and free text are not values to compare with.
function isLiteral(text: string): boolean {
  if (/^Traceback\b/.test(text)) return false;
  if (/^(True|False|None)$/.test(text)) return true;
  if (/^[-+]?(\d[\d_]*\.?\d*|\.\d+)([eE][-+]?\d+)?j?$/.test(text)) return true;
  if (/^(['"]).*\1$/s.test(text)) return true;
  if (/^[[({]/.test(text) && /[\])}]$/.test(text)) {
    // Only literal tokens inside: strip strings, then allow numbers, names of constants and punctuation.
    const bare = text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "0");
    return /^[\s\d.,:()[\]{}\-+eEj_]*$/.test(bare.replace(/\b(True|False|None)\b/g, "0"));
  }
  return false;
}

/**
 * A seeded split of a suite of `n` tests: which indices are visible. Keeps
 * `share` tests visible (default one) and at least one held back, chosen by
 * a partial Fisher–Yates shuffle seeded by (seed, task id), so the split is
 * the same on every run and does not depend on other tasks.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * const visible = seededSplit("builtin/x", 5, 20260510);
 * strictEqual(visible.filter((v) => v).length, 1);
 * deepStrictEqual(seededSplit("builtin/x", 5, 20260510), visible); // same split on every run
 * ```
 */
export function seededSplit(
  taskId: string,
  n: number,
  seed: number,
  share = VISIBLE_SHARE,
): boolean[] {
  const visible = new Array<boolean>(n).fill(false);
  const take = Math.max(0, Math.min(share, n - 1));
  const next = xoshiro128ss((BigInt(seed) << 32n) | BigInt(fnv1a32(taskId, seed)));
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < take; i++) {
    const j = i + below(next(), n - i);
    [order[i], order[j]] = [order[j], order[i]];
    visible[order[i]] = true;
  }
  return visible;
}

/** A task as the split needs it. */
export interface SplitTask {
  task_id: string;
  source: string;
  query: string;
  entry_point: string;
  tests: readonly string[];
  /**
   * The text whose docstring examples are the visible tests (HumanEval: the
   * canonical, whose signature and docstring are the prompt an agent gets;
   * the task's query has its examples stripped). Default the query.
   */
  prompt?: string;
}

/**
 * The `test_split` rows of a set of tasks. HumanEval tasks whose prompt
 * docstring has usable examples get them as visible tests and all
 * of their suite held back (`how = docstring`); every other task gets a
 * seeded split of its suite (`how = split`). Rows sorted by task, origin, index.
 */
export function testSplit(
  tasks: readonly SplitTask[],
  seed: number,
  share = VISIBLE_SHARE,
): TestSplitRow[] {
  const rows: TestSplitRow[] = [];
  const sorted = [...tasks].sort((a, b) =>
    a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0
  );
  for (const t of sorted) {
    const examples = t.source === "humaneval"
      ? docstringExamples(t.prompt ?? t.query, t.entry_point)
      : [];
    if (examples.length > 0) {
      examples.forEach((test, i) =>
        rows.push({
          task_id: t.task_id,
          origin: "docstring",
          test_index: i,
          test,
          visible: true,
          how: "docstring",
        })
      );
      t.tests.forEach((test, i) =>
        rows.push({
          task_id: t.task_id,
          origin: "suite",
          test_index: i,
          test,
          visible: false,
          how: "docstring",
        })
      );
      continue;
    }
    const visible = seededSplit(t.task_id, t.tests.length, seed, share);
    t.tests.forEach((test, i) =>
      rows.push({
        task_id: t.task_id,
        origin: "suite",
        test_index: i,
        test,
        visible: visible[i],
        how: "split",
      })
    );
  }
  return rows;
}

/** Each task's visible and hidden test statements, from `test_split` rows. */
export function visibleAndHidden(
  rows: readonly TestSplitRow[],
): Map<string, { visible: string[]; hidden: string[] }> {
  const out = new Map<string, { visible: string[]; hidden: string[] }>();
  for (const r of rows) {
    let e = out.get(r.task_id);
    if (!e) out.set(r.task_id, e = { visible: [], hidden: [] });
    (r.visible ? e.visible : e.hidden).push(r.test);
  }
  return out;
}
