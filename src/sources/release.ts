import { join } from "node:path";
import type { Reject } from "../io/rejects.ts";
import { normalizeDomain } from "./domain.ts";
import { SourceError } from "./external.ts";
import { jsonlLines } from "./jsonl_lines.ts";
import { deriveEntryPoint } from "./mbpp.ts";
import { type PythonSyntax, pythonSyntax } from "./python_syntax.ts";
import { checkTask, type SourceRead, type TaskDraft, taskReject } from "./task.ts";

/** A released buggy variant paired with a query, kept for comparison with ours. */
export interface ReleaseDistractor {
  /** The task it belongs to, as in the tasks table ("release/<query_id>"). */
  task_id: string;
  corpus_id: string;
  code: string;
  bug_type: string;
}

/** Everything read from a release folder. */
export interface ReleaseRead extends SourceRead {
  distractors: ReleaseDistractor[];
}

interface CorpusRow {
  corpus_id: string;
  code: string;
  label: "correct" | "incorrect";
  bug_type: string | null;
  source_entry_id: string | null;
  locator: string;
}

const SOURCE = "release";

/**
 * The two files of an ExecRetrieval release folder: `<dir>/queries.jsonl` and
 * `<dir>/corpus.jsonl`, or the same under `<dir>/data/`.
 */
export async function releaseFiles(dir: string): Promise<{ queries: string; corpus: string }> {
  for (const base of [dir, join(dir, "data")]) {
    const queries = join(base, "queries.jsonl");
    const corpus = join(base, "corpus.jsonl");
    if (await exists(queries) && await exists(corpus)) return { queries, corpus };
  }
  throw new SourceError(
    `${dir}: no queries.jsonl + corpus.jsonl (nor data/queries.jsonl + data/corpus.jsonl)`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * Read an ExecRetrieval release folder as tasks plus the released
 * distractors. Each query becomes a task whose canonical is its correct
 * corpus row's code and whose tests are its `test_suite`; the domain comes
 * from `metadata.domain` when present, else from the `exec_<domain>_<n>`
 * batch id in `entry_id`; the entry point from
 * `metadata.entry_point`, else derived from the tests as for MBPP.
 *
 * Inconsistencies become rejects, never crashes: malformed or mistyped rows,
 * duplicate query or corpus ids (a duplicated corpus id is also refused
 * wherever a query uses it, since it is ambiguous), a correct id missing from
 * the corpus or labelled incorrect, a distractor id missing or labelled
 * correct, a corpus row from another entry than its query.
 */
export async function readRelease(dir: string, syntax: PythonSyntax): Promise<ReleaseRead> {
  const files = await releaseFiles(dir);
  const rejects: Reject[] = [];
  const reject = (locator: string, reason: string) =>
    rejects.push(taskReject(SOURCE, locator, reason));

  const corpus = new Map<string, CorpusRow>();
  const duplicated = new Set<string>();
  for (const entry of jsonlLines(await Deno.readFile(files.corpus))) {
    const locator = `${files.corpus}:${entry.line}`;
    if (entry.error !== undefined) {
      reject(locator, entry.error);
      continue;
    }
    const row = shapeCorpusRow(entry.value, locator);
    if (typeof row === "string") {
      reject(locator, row);
      continue;
    }
    const first = corpus.get(row.corpus_id);
    if (first) {
      duplicated.add(row.corpus_id);
      reject(locator, `duplicate id: corpus_id ${row.corpus_id} (first at ${first.locator})`);
      continue;
    }
    corpus.set(row.corpus_id, row);
  }

  const tasks: TaskDraft[] = [];
  const distractors: ReleaseDistractor[] = [];
  const seen = new Map<string, string>();
  const used = new Set<string>();
  for (const entry of jsonlLines(await Deno.readFile(files.queries))) {
    const locator = `${files.queries}:${entry.line}`;
    if (entry.error !== undefined) {
      reject(locator, entry.error);
      continue;
    }
    const q = shapeQuery(entry.value);
    if (typeof q === "string") {
      reject(locator, q);
      continue;
    }
    const first = seen.get(q.query_id);
    if (first !== undefined) {
      reject(locator, `duplicate id: query_id ${q.query_id} (first at ${first})`);
      continue;
    }
    seen.set(q.query_id, locator);

    // Every correct id must resolve to one row labelled correct, of this entry.
    const resolve = (id: string, role: "correct" | "distractor"): CorpusRow | string => {
      if (duplicated.has(id)) {
        return `ambiguous corpus id: ${role} id ${id} is duplicated in corpus`;
      }
      const row = corpus.get(id);
      if (!row) return `missing corpus row: ${role} id ${id} is not in the corpus`;
      const want = role === "correct" ? "correct" : "incorrect";
      if (row.label !== want) {
        return `label mismatch: ${role} id ${id} is labelled ${row.label}`;
      }
      if (
        q.entry_id !== null && row.source_entry_id !== null && row.source_entry_id !== q.entry_id
      ) {
        return `entry mismatch: ${role} id ${id} is from entry ${row.source_entry_id}, the query from ${q.entry_id}`;
      }
      return row;
    };
    const correct = q.correct_corpus_ids.map((id) => resolve(id, "correct"));
    const bad = correct.find((c) => typeof c === "string");
    if (bad !== undefined) {
      reject(locator, bad as string);
      continue;
    }
    const canonical = correct[0] as CorpusRow;
    let domain: string | null = null;
    if (q.domain !== null) {
      domain = normalizeDomain(q.domain);
      if (domain === null) {
        reject(locator, `unknown domain: ${JSON.stringify(q.domain)}`);
        continue;
      }
    }
    const { tests, oneStatement } = releaseTests(q.test_suite, syntax);
    if (tests.length === 0) {
      reject(locator, "empty field: test_suite");
      continue;
    }
    const entryPoint = q.entry_point ?? deriveEntryPoint(canonical.code, tests, syntax);
    if (entryPoint === null) {
      reject(locator, "no entry point: the tests call no function the code defines");
      continue;
    }
    const task: TaskDraft = {
      task_id: `${SOURCE}/${q.query_id}`,
      source: SOURCE,
      source_id: q.query_id,
      domain,
      query: q.query.trim(),
      entry_point: entryPoint,
      canonical: canonical.code,
      setup: "",
      tests,
      extra_tests: [],
      locator,
    };
    const problem = checkTask(task, syntax, oneStatement);
    if (problem) {
      reject(locator, problem);
      continue;
    }
    tasks.push(task);
    for (const id of q.correct_corpus_ids) used.add(id);
    for (const id of q.paired_distractor_corpus_ids) {
      const row = resolve(id, "distractor");
      if (typeof row === "string") {
        reject(locator, row);
        continue;
      }
      used.add(id);
      distractors.push({
        task_id: task.task_id,
        corpus_id: row.corpus_id,
        code: row.code,
        bug_type: row.bug_type ?? "",
      });
    }
  }
  const unused = [...corpus.keys()].filter((id) => !used.has(id) && !duplicated.has(id)).length;
  return {
    tasks,
    rejects,
    distractors,
    notes: { released_distractors: distractors.length, unreferenced_corpus_rows: unused },
  };
}

/**
 * The released distractors of a release folder, for comparison with the
 * kit's own mutants: one row per (kept query, valid paired distractor).
 *
 * @example
 * ```ts
 * const released = await readReleaseDistractors("path/to/release");
 * released[0]; // { task_id: "release/q1", corpus_id: "c7", code: "def ...", bug_type: "off_by_one" }
 * ```
 */
export async function readReleaseDistractors(dir: string): Promise<ReleaseDistractor[]> {
  return (await readRelease(dir, await pythonSyntax())).distractors;
}

/**
 * A release's test suite as test statements: a list is taken as it is (one
 * statement each); a single string is split into its module-level
 * statements when they are all asserts, else kept whole as one test.
 */
function releaseTests(
  suite: string | string[],
  syntax: PythonSyntax,
): { tests: string[]; oneStatement: boolean } {
  if (Array.isArray(suite)) return { tests: suite, oneStatement: true };
  if (suite.trim() === "") return { tests: [], oneStatement: true };
  const split = syntax.withTree(suite, (root) => {
    if (root.hasError) return null;
    const statements = root.namedChildren.filter((n) => n && n.type !== "comment");
    if (statements.some((n) => n!.type !== "assert_statement")) return null;
    return statements.map((n) => n!.text);
  });
  return split ? { tests: split, oneStatement: true } : { tests: [suite], oneStatement: false };
}

interface QueryRow {
  query_id: string;
  query: string;
  test_suite: string | string[];
  correct_corpus_ids: string[];
  paired_distractor_corpus_ids: string[];
  entry_id: string | null;
  domain: string | null;
  entry_point: string | null;
}

const QUERY_FIELDS = [
  "query_id",
  "query",
  "test_suite",
  "correct_corpus_ids",
  "paired_distractor_corpus_ids",
  "entry_id",
] as const;

function shapeQuery(value: unknown): QueryRow | string {
  if (!isObject(value)) return "not an object: the line is not a JSON object";
  for (const key of QUERY_FIELDS) {
    if (!(key in value)) return `missing field: ${key}`;
  }
  if (!isId(value.query_id)) return "wrong type: query_id must be a string or integer";
  if (typeof value.query !== "string") return "wrong type: query must be a string";
  const suite = value.test_suite;
  if (!(typeof suite === "string" || isStringList(suite))) {
    return "wrong type: test_suite must be a string or an array of strings";
  }
  for (const key of ["correct_corpus_ids", "paired_distractor_corpus_ids"] as const) {
    const ids = value[key];
    if (!Array.isArray(ids) || !ids.every(isId)) {
      return `wrong type: ${key} must be an array of ids`;
    }
  }
  if ((value.correct_corpus_ids as unknown[]).length === 0) {
    return "empty field: correct_corpus_ids";
  }
  if (value.entry_id !== null && !isId(value.entry_id)) {
    return "wrong type: entry_id must be a string, an integer or null";
  }
  const metadata = value.metadata ?? {};
  if (!isObject(metadata)) return "wrong type: metadata must be an object";
  if (metadata.domain !== undefined && metadata.domain !== null) {
    if (typeof metadata.domain !== "string") return "wrong type: metadata.domain must be a string";
  }
  if (metadata.entry_point !== undefined && metadata.entry_point !== null) {
    if (typeof metadata.entry_point !== "string") {
      return "wrong type: metadata.entry_point must be a string";
    }
  }
  return {
    query_id: String(value.query_id),
    query: value.query,
    test_suite: suite as string | string[],
    correct_corpus_ids: (value.correct_corpus_ids as unknown[]).map(String),
    paired_distractor_corpus_ids: (value.paired_distractor_corpus_ids as unknown[]).map(String),
    entry_id: value.entry_id === null ? null : String(value.entry_id),
    domain: (metadata.domain as string | undefined) ?? domainOfEntry(value.entry_id),
    entry_point: (metadata.entry_point as string | undefined) ?? null,
  };
}

/**
 * The release keeps a query's domain in its generation batch id,
 * `exec_<domain>_<n>` (data/README.md: `metadata` holds the generator's
 * provenance, not the domain).
 *
 * @example
 * ```ts
 * domainOfEntry("exec_string_processing_5"); // "string_processing"
 * ```
 */
export function domainOfEntry(entry: unknown): string | null {
  if (typeof entry !== "string") return null;
  const m = /^exec_([a-z_]+?)_\d+$/.exec(entry);
  return m ? m[1] : null;
}

function shapeCorpusRow(value: unknown, locator: string): CorpusRow | string {
  if (!isObject(value)) return "not an object: the line is not a JSON object";
  for (const key of ["corpus_id", "code", "label"] as const) {
    if (!(key in value)) return `missing field: ${key}`;
  }
  if (!isId(value.corpus_id)) return "wrong type: corpus_id must be a string or integer";
  if (typeof value.code !== "string") return "wrong type: code must be a string";
  if (value.label !== "correct" && value.label !== "incorrect") {
    return `wrong value: label must be "correct" or "incorrect", got ${
      JSON.stringify(value.label)
    }`;
  }
  const bugType = value.bug_type ?? null;
  if (bugType !== null && typeof bugType !== "string") {
    return "wrong type: bug_type must be a string or null";
  }
  if (value.label === "incorrect" && !bugType) {
    return "missing field: bug_type (required on incorrect rows)";
  }
  const entry = value.source_entry_id ?? null;
  if (entry !== null && !isId(entry)) {
    return "wrong type: source_entry_id must be a string, an integer or null";
  }
  return {
    corpus_id: String(value.corpus_id),
    code: value.code,
    label: value.label,
    bug_type: bugType,
    source_entry_id: entry === null ? null : String(entry),
    locator,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isId(value: unknown): value is string | number {
  return (typeof value === "string" && value !== "") || Number.isInteger(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
