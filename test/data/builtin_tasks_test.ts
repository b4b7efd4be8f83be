// Shape checks for the built-in task set (data/builtin_tasks.jsonl).
// Execution of the canonicals against their tests is covered by the oracle's tests.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { DOMAINS } from "../../src/tables/schema.ts";

const KEYS = ["task_id", "domain", "query", "entry_point", "canonical", "setup", "tests"];

interface BuiltinTask {
  task_id: string;
  domain: string;
  query: string;
  entry_point: string;
  canonical: string;
  setup: string;
  tests: string[];
}

const path = new URL("../../data/builtin_tasks.jsonl", import.meta.url);

function loadTasks(): BuiltinTask[] {
  const text = Deno.readTextFileSync(path);
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as BuiltinTask;
    } catch (err) {
      throw new Error(`line ${i + 1} is not valid JSON: ${err}`);
    }
  });
}

/** True if the test is one line with no top-level `;` and balanced brackets and quotes. */
function isSingleStatement(test: string): boolean {
  if (test.includes("\n")) return false;
  // A top-level `;` outside string literals would join two statements.
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < test.length; i++) {
    const ch = test[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === ";" && depth === 0) return false;
  }
  return quote === null && depth === 0;
}

Deno.test("builtin tasks: file parses and has at least 60 tasks", () => {
  const tasks = loadTasks();
  ok(tasks.length >= 60, `expected >= 60 tasks, got ${tasks.length}`);
});

Deno.test("builtin tasks: all ten domains present with at least 5 tasks each", () => {
  const counts = new Map<string, number>();
  for (const t of loadTasks()) counts.set(t.domain, (counts.get(t.domain) ?? 0) + 1);
  assertEquals([...counts.keys()].sort(), [...DOMAINS].sort());
  for (const d of DOMAINS) ok((counts.get(d) ?? 0) >= 5, `domain ${d} has ${counts.get(d)} tasks`);
});

Deno.test("builtin tasks: ids are unique", () => {
  const ids = loadTasks().map((t) => t.task_id);
  assertEquals(new Set(ids).size, ids.length);
});

Deno.test("builtin tasks: required fields with the right types, in order", () => {
  for (const t of loadTasks()) {
    const id = String(t.task_id);
    assertEquals(Object.keys(t), KEYS, `keys of ${id}`);
    for (const k of ["task_id", "domain", "query", "entry_point", "canonical", "setup"] as const) {
      assertEquals(typeof t[k], "string", `${id}.${k} must be a string`);
    }
    ok(/^[a-z]+_[a-z0-9_]+$/.test(t.task_id), `task_id ${id} must be <domain short>_<name>`);
    ok((DOMAINS as readonly string[]).includes(t.domain), `${id} has unknown domain ${t.domain}`);
    ok(t.query.trim().length >= 20, `${id} query too short`);
    ok(/^[A-Za-z_][A-Za-z0-9_]*$/.test(t.entry_point), `${id} entry_point is not an identifier`);
    ok(Array.isArray(t.tests), `${id}.tests must be an array`);
    for (const test of t.tests) assertEquals(typeof test, "string", `${id} test must be a string`);
  }
});

Deno.test("builtin tasks: at least 5 single-statement assert tests each", () => {
  for (const t of loadTasks()) {
    ok(t.tests.length >= 5, `${t.task_id} has only ${t.tests.length} tests`);
    for (const test of t.tests) {
      ok(test.startsWith("assert "), `${t.task_id}: test does not start with assert: ${test}`);
      ok(isSingleStatement(test), `${t.task_id}: test is not a single statement: ${test}`);
    }
    assertEquals(new Set(t.tests).size, t.tests.length, `${t.task_id} has duplicate tests`);
  }
});

Deno.test("builtin tasks: canonical defines the entry point and uses 4-space indents", () => {
  for (const t of loadTasks()) {
    ok(t.canonical.includes(`def ${t.entry_point}(`), `${t.task_id}: no def ${t.entry_point}(`);
    ok(!t.canonical.includes("\t"), `${t.task_id}: canonical contains a tab`);
    ok(!t.canonical.includes("\r"), `${t.task_id}: canonical contains a carriage return`);
    for (const line of t.canonical.split("\n")) {
      const indent = line.length - line.trimStart().length;
      ok(line.trim() === "" || indent % 4 === 0, `${t.task_id}: odd indent: ${line}`);
    }
    ok(
      !/^\s*(import|from)\s+(random|secrets|requests|numpy|os|subprocess|socket)\b/m.test(
        t.canonical,
      ),
      `${t.task_id}: canonical imports a forbidden module`,
    );
    ok(
      !/\b(now|today|utcnow|time\.time|perf_counter|random)\s*\(/.test(t.canonical),
      `${t.task_id}: canonical is not deterministic`,
    );
  }
});
