import { jsonlLines } from "../io/jsonl_lines.ts";

/**
 * A row of `data/queries.jsonl`, as released: its test suite is a list of
 * statements in the release, a single string in some earlier drafts.
 */
export interface ReleasedQueryRow {
  query_id: string;
  query: string;
  test_suite: string | string[];
  correct_corpus_ids: string[];
  paired_distractor_corpus_ids: string[];
  /** The generation batch id (`exec_<domain>_<n>`), shared by queries, or null. */
  entry_id: string | null;
  /** Provenance; `domain` and `entry_point`, when present, are strings. */
  metadata: Record<string, unknown>;
  /** file:line */
  locator: string;
}

/** A query of `data/queries.jsonl` whose test suite is a list of statements. */
export interface ReleasedQuery extends ReleasedQueryRow {
  test_suite: string[];
}

/** A snippet of `data/corpus.jsonl`. */
export interface ReleasedSnippet {
  corpus_id: string;
  code: string;
  label: "correct" | "incorrect";
  /** null on canonicals (the release omits the key; `""` is read the same way) */
  bug_type: string | null;
  source_entry_id: string | null;
  /** file:line */
  locator: string;
}

/** One line of a release JSONL file: its row, or why it has none. */
export type Parsed<T> = { locator: string; row: T } | { locator: string; problem: string };

/**
 * Every line of a release's `corpus.jsonl`, parsed: a snippet, or the first
 * thing wrong with the line (`missing field: code`, `wrong type: ...`). Ids
 * are not checked for uniqueness here: the readers decide what a duplicate
 * costs.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const file = "test/fixtures/release/paper/data/corpus.jsonl";
 * const lines = await readReleasedCorpus(file);
 * strictEqual(lines[0].locator, `${file}:1`);
 * ```
 */
export function readReleasedCorpus(file: string): Promise<Parsed<ReleasedSnippet>[]> {
  return parseLines(file, parseSnippet);
}

/**
 * Every line of a release's `queries.jsonl`, parsed: a query, or the first
 * thing wrong with the line. References to the corpus are not resolved here.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const file = "test/fixtures/release/paper/data/queries.jsonl";
 * const lines = await readReleasedQueries(file);
 * strictEqual(lines[0].locator, `${file}:1`);
 * ```
 */
export function readReleasedQueries(file: string): Promise<Parsed<ReleasedQueryRow>[]> {
  return parseLines(file, parseQuery);
}

async function parseLines<T>(
  file: string,
  parse: (value: unknown, locator: string) => T | string,
): Promise<Parsed<T>[]> {
  const out: Parsed<T>[] = [];
  for (const entry of jsonlLines(await Deno.readFile(file))) {
    const locator = `${file}:${entry.line}`;
    if (entry.error !== undefined) {
      out.push({ locator, problem: entry.error });
      continue;
    }
    const row = parse(entry.value, locator);
    out.push(typeof row === "string" ? { locator, problem: row } : { locator, row });
  }
  return out;
}

const QUERY_FIELDS = [
  "query_id",
  "query",
  "test_suite",
  "correct_corpus_ids",
  "paired_distractor_corpus_ids",
  "entry_id",
] as const;

function parseQuery(value: unknown, locator: string): ReleasedQueryRow | string {
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
  for (const key of ["domain", "entry_point"] as const) {
    if (metadata[key] !== undefined && metadata[key] !== null) {
      if (typeof metadata[key] !== "string") return `wrong type: metadata.${key} must be a string`;
    }
  }
  return {
    query_id: String(value.query_id),
    query: value.query,
    test_suite: suite as string | string[],
    correct_corpus_ids: (value.correct_corpus_ids as unknown[]).map(String),
    paired_distractor_corpus_ids: (value.paired_distractor_corpus_ids as unknown[]).map(String),
    entry_id: value.entry_id === null ? null : String(value.entry_id),
    metadata,
    locator,
  };
}

function parseSnippet(value: unknown, locator: string): ReleasedSnippet | string {
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
    bug_type: bugType === "" ? null : bugType,
    source_entry_id: entry === null ? null : String(entry),
    locator,
  };
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A release id: a non-empty string or an integer. */
export function isId(value: unknown): value is string | number {
  return (typeof value === "string" && value !== "") || Number.isInteger(value);
}

/** A list of strings. */
export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
