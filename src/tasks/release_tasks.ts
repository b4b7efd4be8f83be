import { join } from "node:path";
import type { Reject } from "../tables/rejects.ts";
import { normalizeDomain } from "./domain.ts";
import { SourceError } from "./external.ts";
import { deriveEntryPoint } from "./mbpp.ts";
import { type PythonSyntax, pythonSyntax } from "./python_syntax.ts";
import { checkTask, type SourceRead, type TaskDraft, taskReject } from "./task.ts";
import { BUNDLE_FILES } from "../release/bundle_files.ts";
import { resolveId } from "../release/read_data.ts";
import {
  readReleasedCorpus,
  readReleasedQueries,
  type ReleasedSnippet,
} from "../release/released_rows.ts";

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

const SOURCE = "release";

/**
 * The two files of an ExecRetrieval release folder: `<dir>/queries.jsonl` and
 * `<dir>/corpus.jsonl`, or the same where the release keeps them
 * ({@link BUNDLE_FILES}: under `<dir>/data/`).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(await releaseFiles("test/fixtures/release/paper"), {
 *   queries: "test/fixtures/release/paper/data/queries.jsonl",
 *   corpus: "test/fixtures/release/paper/data/corpus.jsonl",
 * });
 * ```
 */
export async function releaseFiles(dir: string): Promise<{ queries: string; corpus: string }> {
  const layouts = [
    { queries: "queries.jsonl", corpus: "corpus.jsonl" },
    { queries: BUNDLE_FILES.queries, corpus: BUNDLE_FILES.corpus },
  ];
  for (const layout of layouts) {
    const queries = join(dir, layout.queries);
    const corpus = join(dir, layout.corpus);
    if (await isFile(queries) && await isFile(corpus)) return { queries, corpus };
  }
  const [root, released] = layouts;
  throw new SourceError(
    `${dir}: no ${root.queries} + ${root.corpus} (nor ${released.queries} + ${released.corpus})`,
  );
}

async function isFile(path: string): Promise<boolean> {
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
 * wherever a query uses it, since it is ambiguous), a correct or distractor
 * id missing from the corpus. A label or generation batch that disagrees
 * with the query is not a reason to drop it (the bundle reader counts it as
 * a finding).
 *
 * Its tasks are named after the released query ids, e.g. `release/q_0001`.
 */
export async function readRelease(dir: string, syntax: PythonSyntax): Promise<ReleaseRead> {
  const files = await releaseFiles(dir);
  const rejects: Reject[] = [];
  const reject = (locator: string, reason: string) =>
    rejects.push(taskReject(SOURCE, locator, reason));

  const corpus = new Map<string, ReleasedSnippet>();
  const duplicated = new Set<string>();
  for (const line of await readReleasedCorpus(files.corpus)) {
    if ("problem" in line) {
      reject(line.locator, line.problem);
      continue;
    }
    const row = line.row;
    const first = corpus.get(row.corpus_id);
    if (first) {
      duplicated.add(row.corpus_id);
      reject(row.locator, `duplicate id: corpus_id ${row.corpus_id} (first at ${first.locator})`);
      continue;
    }
    corpus.set(row.corpus_id, row);
  }

  const tasks: TaskDraft[] = [];
  const distractors: ReleaseDistractor[] = [];
  const seen = new Map<string, string>();
  const used = new Set<string>();
  for (const line of await readReleasedQueries(files.queries)) {
    if ("problem" in line) {
      reject(line.locator, line.problem);
      continue;
    }
    const q = line.row;
    const locator = q.locator;
    const first = seen.get(q.query_id);
    if (first !== undefined) {
      reject(locator, `duplicate id: query_id ${q.query_id} (first at ${first})`);
      continue;
    }
    seen.set(q.query_id, locator);

    // Every id must resolve to one corpus row, by the bundle reader's rule
    // (read_data.ts): a label or batch that disagrees is its finding, not a
    // reason to drop the task, since the query's own lists say what is correct.
    const resolve = (id: string, role: "correct" | "distractor"): ReleasedSnippet | string => {
      const r = resolveId(q, id, role, { corpus, duplicated });
      return "problem" in r ? r.problem : r.row;
    };
    const correct = q.correct_corpus_ids.map((id) => resolve(id, "correct"));
    const bad = correct.find((c) => typeof c === "string");
    if (bad !== undefined) {
      reject(locator, bad as string);
      continue;
    }
    const canonical = correct[0] as ReleasedSnippet;
    const ownDomain = (q.metadata.domain as string | null | undefined) ?? domainOfEntry(q.entry_id);
    let domain: string | null = null;
    if (ownDomain !== null) {
      domain = normalizeDomain(ownDomain);
      if (domain === null) {
        reject(locator, `unknown domain: ${JSON.stringify(ownDomain)}`);
        continue;
      }
    }
    const { tests, oneStatement } = releaseTests(q.test_suite, syntax);
    if (tests.length === 0) {
      reject(locator, "empty field: test_suite");
      continue;
    }
    const entryPoint = (q.metadata.entry_point as string | null | undefined) ??
      deriveEntryPoint(canonical.code, tests, syntax);
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

/**
 * The release keeps a query's domain in its generation batch id,
 * `exec_<domain>_<n>` (data/README.md: `metadata` holds the generator's
 * provenance, not the domain).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(domainOfEntry("exec_string_processing_5"), "string_processing");
 * ```
 */
export function domainOfEntry(entry: unknown): string | null {
  if (typeof entry !== "string") return null;
  const m = /^exec_([a-z_]+?)_\d+$/.exec(entry);
  return m ? m[1] : null;
}
