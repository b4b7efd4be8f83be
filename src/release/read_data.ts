import { jsonlLines } from "../io/jsonl_lines.ts";
import type { BundleProblem } from "./bundle_problem.ts";
import type { CacheEntry } from "./bundle_types.ts";
import type { Findings } from "./findings.ts";
import {
  isObject,
  isStringList,
  readReleasedCorpus,
  readReleasedQueries,
  type ReleasedQuery,
  type ReleasedQueryRow,
  type ReleasedSnippet,
} from "./released_rows.ts";

/**
 * The documented outcomes (results/README.md): `pass`, `FAIL`, `FAIL:`
 * followed by the assertion's message (with or without a space),
 * `TIMEOUT`, `ERROR:<exception type>`.
 */
export const OUTCOME = /^(pass|FAIL(:[\s\S]*)?|TIMEOUT|ERROR:[\s\S]+)$/;

/** `data/corpus.jsonl` by id, and the ids written more than once. */
export interface CorpusRead {
  corpus: Map<string, ReleasedSnippet>;
  duplicated: Set<string>;
}

/**
 * The corpus. A row that cannot be read, or an id written twice, is a
 * problem: the pool every released ranking ranks is then undefined.
 */
export async function readCorpus(file: string, problems: BundleProblem[]): Promise<CorpusRead> {
  const corpus = new Map<string, ReleasedSnippet>();
  const duplicated = new Set<string>();
  for (const line of await readReleasedCorpus(file)) {
    if ("problem" in line) {
      problems.push({ locator: line.locator, reason: line.problem });
      continue;
    }
    const row = line.row;
    const first = corpus.get(row.corpus_id);
    if (first) {
      duplicated.add(row.corpus_id);
      problems.push({
        locator: row.locator,
        reason: `duplicate corpus id ${row.corpus_id} (first at ${first.locator})`,
      });
      continue;
    }
    corpus.set(row.corpus_id, row);
  }
  return { corpus, duplicated };
}

/**
 * Resolve one of a query's corpus ids: the row, or why it cannot be used
 * (missing, or ambiguous). A label other than the role's, or a row of
 * another generation batch than the query's, is returned as a finding: the
 * query's own lists say which snippet is correct, so scoring is unaffected.
 */
export function resolveId(
  q: ReleasedQueryRow,
  id: string,
  role: "correct" | "distractor",
  data: CorpusRead,
): { row: ReleasedSnippet; note: string | null } | { problem: string } {
  if (data.duplicated.has(id)) {
    return { problem: `ambiguous corpus id: ${role} id ${id} is duplicated in corpus` };
  }
  const row = data.corpus.get(id);
  if (!row) return { problem: `missing corpus row: ${role} id ${id} is not in the corpus` };
  const want = role === "correct" ? "correct" : "incorrect";
  if (row.label !== want) {
    return { row, note: `label mismatch: ${role} id ${id} is labelled ${row.label}` };
  }
  if (q.entry_id !== null && row.source_entry_id !== null && row.source_entry_id !== q.entry_id) {
    return {
      row,
      note:
        `entry mismatch: ${role} id ${id} is from entry ${row.source_entry_id}, the query from ${q.entry_id}`,
    };
  }
  return { row, note: null };
}

/**
 * The queries. A row that cannot be read, a duplicate id, a test suite that
 * is not the documented list of statements, or a corpus id that does not
 * resolve is a problem; a label or batch mismatch is a finding.
 */
export async function readQueries(
  file: string,
  data: CorpusRead,
  problems: BundleProblem[],
  findings: Findings,
): Promise<ReleasedQuery[]> {
  const out: ReleasedQuery[] = [];
  const seen = new Map<string, string>();
  for (const line of await readReleasedQueries(file)) {
    if ("problem" in line) {
      problems.push({ locator: line.locator, reason: line.problem });
      continue;
    }
    const q = line.row;
    const bad = (reason: string) =>
      problems.push({ locator: q.locator, reason: `query id ${q.query_id}: ${reason}` });
    if (!isStringList(q.test_suite) || q.test_suite.length === 0) {
      bad("test_suite must be a non-empty list of strings");
      continue;
    }
    if (seen.has(q.query_id)) {
      bad(`duplicate query id (first at ${seen.get(q.query_id)})`);
      continue;
    }
    seen.set(q.query_id, q.locator);
    const roles = [
      ...q.correct_corpus_ids.map((id) => [id, "correct"] as const),
      ...q.paired_distractor_corpus_ids.map((id) => [id, "distractor"] as const),
    ];
    for (const [id, role] of roles) {
      const r = resolveId(q, id, role, data);
      if ("problem" in r) bad(r.problem);
      else if (r.note !== null) {
        const kind = r.note.startsWith("label") ? "label_differs" : "entry_differs";
        findings.note(file, `${role}_corpus_ids`, kind, `${q.query_id}: ${r.note}`);
      }
    }
    out.push({ ...q, test_suite: q.test_suite as string[] });
  }
  return out;
}

/**
 * The execution cache. Every row problem is a finding (the pair then counts
 * as not in the cache): the kit executes every pair itself, so the cache is
 * only compared, never needed.
 */
export async function readCache(
  file: string,
  findings: Findings,
): Promise<Map<string, CacheEntry>> {
  const cache = new Map<string, CacheEntry>();
  const lines = jsonlLines(await Deno.readFile(file));
  for (const entry of lines) {
    const locator = `${file}:${entry.line}`;
    const v = entry.value;
    const where = `line ${entry.line}`;
    if (entry.error !== undefined || !isObject(v)) {
      findings.note(file, "", "malformed_entry", `${where}: ${entry.error ?? "not an object"}`);
      continue;
    }
    if (typeof v.code_sha256 !== "string" || typeof v.tests_sha256 !== "string") {
      findings.note(file, "code_sha256, tests_sha256", "malformed_entry", where);
      continue;
    }
    // The README calls the per-test list test_results; an earlier draft outcomes.
    const list = v.test_results ?? v.outcomes;
    if (!isStringList(list)) {
      findings.note(file, "test_results", "malformed_entry", where);
      continue;
    }
    const unknown = list.find((o) => !OUTCOME.test(o));
    if (unknown !== undefined) {
      findings.note(
        file,
        "test_results",
        "unknown_outcome",
        `${where}: ${JSON.stringify(unknown)}`,
      );
    }
    if (
      v.passes_all_tests !== undefined && v.passes_all_tests !== list.every((o) => o === "pass")
    ) {
      findings.note(
        file,
        "passes_all_tests",
        "pass_flag_disagrees",
        `${where}: ${JSON.stringify(v.passes_all_tests)} for ${JSON.stringify(list)}`,
      );
    }
    const key = `${v.code_sha256}/${v.tests_sha256}`;
    const first = cache.get(key);
    if (first) {
      if (JSON.stringify(first.outcomes) !== JSON.stringify(list)) {
        findings.note(
          file,
          "",
          "cache_repeated",
          `${where} (first at line ${first.locator.slice(first.locator.lastIndexOf(":") + 1)})`,
        );
      }
      continue;
    }
    cache.set(key, {
      code_sha256: v.code_sha256,
      tests_sha256: v.tests_sha256,
      outcomes: list,
      locator,
    });
  }
  return cache;
}
