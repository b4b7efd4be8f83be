import type { Reject } from "../tables/rejects.ts";
import { isDomain } from "./domain.ts";
import { jsonlLines } from "../io/jsonl_lines.ts";
import type { PythonSyntax } from "./python_syntax.ts";
import { checkTask, type SourceRead, type TaskDraft, taskReject } from "./task.ts";

/** Fields of the task JSONL schema (data/TASKS_SCHEMA.md), required first. */
const REQUIRED = ["task_id", "query", "entry_point", "canonical", "tests"] as const;
const OPTIONAL = ["setup", "domain", "extra_tests"] as const;
const KNOWN = new Set<string>([...REQUIRED, ...OPTIONAL]);
const STRING_FIELDS = ["task_id", "query", "entry_point", "canonical", "setup"] as const;
const LIST_FIELDS = ["tests", "extra_tests"] as const;

/**
 * Read tasks in the documented JSONL schema (data/TASKS_SCHEMA.md): the
 * built-in tasks and any user file. Every line that is not a valid task
 * becomes a reject located at `<file>:<line>`; a repeated `task_id` is
 * rejected at its later lines.
 *
 * @param bytes the file's content
 * @param file the file name to use in locators (as the user gave it)
 * @param source the `source` column value, e.g. "builtin" or "jsonl:my.jsonl"
 */
export function readTaskJsonl(
  bytes: Uint8Array,
  file: string,
  source: string,
  syntax: PythonSyntax,
): SourceRead {
  const tasks: TaskDraft[] = [];
  const rejects: Reject[] = [];
  const seen = new Map<string, string>();
  for (const entry of jsonlLines(bytes)) {
    const locator = `${file}:${entry.line}`;
    const reject = (reason: string) => rejects.push(taskReject(source, locator, reason));
    if (entry.error !== undefined) {
      reject(entry.error);
      continue;
    }
    const shaped = shapeRecord(entry.value);
    if (typeof shaped === "string") {
      reject(shaped);
      continue;
    }
    const first = seen.get(shaped.task_id);
    if (first !== undefined) {
      reject(`duplicate id: ${shaped.task_id} (first at ${first})`);
      continue;
    }
    seen.set(shaped.task_id, locator);
    const task: TaskDraft = {
      task_id: `${source}/${shaped.task_id}`,
      source,
      source_id: shaped.task_id,
      domain: shaped.domain ?? null,
      query: shaped.query,
      entry_point: shaped.entry_point,
      canonical: shaped.canonical,
      setup: shaped.setup ?? "",
      tests: shaped.tests,
      extra_tests: shaped.extra_tests ?? [],
      locator,
    };
    const problem = checkTask(task, syntax, true);
    if (problem) reject(problem);
    else tasks.push(task);
  }
  return { tasks, rejects };
}

interface TaskRecord {
  task_id: string;
  query: string;
  entry_point: string;
  canonical: string;
  tests: string[];
  setup?: string;
  domain?: string;
  extra_tests?: string[];
}

/** The record if it has the schema's shape, else the reason it has not. */
function shapeRecord(value: unknown): TaskRecord | string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return `not an object: the line holds ${kind}`;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KNOWN.has(key)) return `unknown field: ${key}`;
  }
  for (const key of REQUIRED) {
    if (!(key in record) || record[key] === null) return `missing field: ${key}`;
  }
  for (const key of STRING_FIELDS) {
    if (key in record && typeof record[key] !== "string") {
      return `wrong type: ${key} must be a string, got ${typeName(record[key])}`;
    }
  }
  for (const key of LIST_FIELDS) {
    if (!(key in record)) continue;
    const list = record[key];
    if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) {
      return `wrong type: ${key} must be an array of strings, got ${typeName(list)}`;
    }
  }
  if ((record.task_id as string).trim() === "") return "empty field: task_id";
  if (/[\s#]/.test(record.task_id as string)) {
    return `bad id: ${JSON.stringify(record.task_id)} holds whitespace or '#'`;
  }
  if ("domain" in record && !isDomain(record.domain)) {
    return `unknown domain: ${JSON.stringify(record.domain)}`;
  }
  return record as unknown as TaskRecord;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const bad = value.find((v) => typeof v !== "string");
    return bad === undefined ? "an array" : `an array holding ${typeName(bad)}`;
  }
  return typeof value;
}
