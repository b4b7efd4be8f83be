import { join } from "node:path";
import type { BundleProblem } from "./bundle_problem.ts";
import { filesUnder, readJsonFile } from "./bundle_files.ts";
import type { ReleasedQueryRanking, ReleasedRun, TopResult } from "./bundle_types.ts";
import type { Findings } from "./findings.ts";
import { OUTCOME } from "./read_data.ts";
import {
  isId,
  isObject,
  isStringList,
  type ReleasedQuery,
  type ReleasedSnippet,
} from "./released_rows.ts";

/** Names in `results/` that are not per-model files. */
const NOT_MODEL_FILES = new Set(["full_leaderboard.json", "invocation_table.json"]);

/** How many top results each query carries (results/README.md). */
const TOP = 10;

const TOP_PLACE = "per_query[].top_results[]";

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/**
 * Every `results/<model>.json` (in subfolders too: a model id may carry its
 * provider as a folder). A file that cannot be parsed, has no model id,
 * names a model twice, or ranks a query or snippet that does not exist is a
 * problem: its rankings cannot be set beside anything. Everything else the
 * file gets wrong is a finding, and the entry concerned is skipped or taken
 * as written.
 */
export async function readRuns(
  dir: string,
  queries: readonly ReleasedQuery[],
  corpus: ReadonlyMap<string, ReleasedSnippet>,
  problems: BundleProblem[],
  findings: Findings,
): Promise<ReleasedRun[]> {
  const files = (await filesUnder(dir, ".json")).filter((rel) => !NOT_MODEL_FILES.has(rel));
  if (files.length === 0) problems.push({ locator: dir, reason: "no results/<model>.json files" });
  const byQuery = new Map(queries.map((q) => [q.query_id, q]));
  const runs: ReleasedRun[] = [];
  const seen = new Map<string, string>();
  const report = (locator: string, reason: string) => problems.push({ locator, reason });
  for (const name of files) {
    const file = join(dir, name);
    const v = await readJsonFile(file, report);
    if (v === undefined) continue;
    if (!isObject(v) || typeof v.model !== "string" || v.model === "") {
      report(file, "not an object with a model id");
      continue;
    }
    if (seen.has(v.model)) {
      report(file, `model ${v.model} also released in ${seen.get(v.model)}`);
      continue;
    }
    seen.set(v.model, file);
    const run = shapeRun(
      v,
      file,
      name.slice(0, -".json".length),
      byQuery,
      corpus,
      problems,
      findings,
    );
    if (run) runs.push(run);
  }
  return runs.sort((a, b) => a.model < b.model ? -1 : a.model > b.model ? 1 : 0);
}

function shapeRun(
  v: Record<string, unknown>,
  file: string,
  stem: string,
  byQuery: ReadonlyMap<string, ReleasedQuery>,
  corpus: ReadonlyMap<string, ReleasedSnippet>,
  problems: BundleProblem[],
  findings: Findings,
): ReleasedRun | null {
  const before = problems.length;
  const refuse = (reason: string) => problems.push({ locator: file, reason });
  const note = (place: string, kind: Parameters<Findings["note"]>[2], example: string) =>
    findings.note(file, place, kind, example);
  if (v.n_queries !== byQuery.size) {
    note(
      "n_queries",
      "count_differs",
      `${JSON.stringify(v.n_queries)}, queries.jsonl has ${byQuery.size}`,
    );
  }
  if (v.n_corpus !== corpus.size) {
    note(
      "n_corpus",
      "count_differs",
      `${JSON.stringify(v.n_corpus)}, corpus.jsonl has ${corpus.size}`,
    );
  }
  const ks = Array.isArray(v.ks) && v.ks.every((k) => Number.isInteger(k) && k > 0) ? v.ks : [];
  if (ks.length === 0) note("ks", "malformed_entry", JSON.stringify(v.ks ?? null));
  const metrics: Record<string, number> = {};
  for (const [name, value] of Object.entries(isObject(v.metrics) ? v.metrics : {})) {
    if (isNumber(value)) metrics[name] = value;
    else note(`metrics["${name}"]`, "malformed_entry", JSON.stringify(value));
  }
  if (!isObject(v.metrics)) note("metrics", "malformed_entry", JSON.stringify(v.metrics ?? null));
  if (!Array.isArray(v.per_query)) {
    refuse("per_query must be a list");
    return null;
  }

  const ranked = new Set<string>();
  const perQuery: ReleasedQueryRanking[] = [];
  for (const [i, pq] of v.per_query.entries()) {
    if (!isObject(pq) || !isId(pq.query_id)) {
      note("per_query[]", "malformed_entry", `per_query[${i}]: no query_id`);
      continue;
    }
    const qid = String(pq.query_id);
    const q = byQuery.get(qid);
    if (!q) {
      refuse(`per_query[${i}]: query id ${qid} is not in queries.jsonl`);
      continue;
    }
    if (ranked.has(qid)) {
      note("per_query[]", "query_unranked", `${qid} ranked twice`);
      continue;
    }
    ranked.add(qid);
    const listed = Array.isArray(pq.correct_corpus_ids) ? pq.correct_corpus_ids.map(String) : null;
    if (listed === null || listed.join("\n") !== q.correct_corpus_ids.join("\n")) {
      note(
        "per_query[].correct_corpus_ids",
        "malformed_entry",
        `${qid}: differ from queries.jsonl`,
      );
    }
    if (!Array.isArray(pq.top_results)) {
      note("per_query[].top_results", "malformed_entry", `${qid}: not a list`);
      continue;
    }
    const top = topResults(pq.top_results, q, corpus, refuse, note);
    if (top.length < TOP) note(TOP_PLACE, "top_results_short", `${qid}: ${top.length}`);
    perQuery.push({ query_id: qid, correct_corpus_ids: q.correct_corpus_ids, top_results: top });
  }
  for (const qid of byQuery.keys()) {
    if (!ranked.has(qid)) note("per_query[]", "query_unranked", `${qid} has no entry`);
  }
  if (problems.length > before) return null;
  return {
    model: v.model as string,
    n_queries: v.n_queries as number,
    n_corpus: v.n_corpus as number,
    ks: ks as number[],
    metrics,
    per_query: perQuery,
    file,
    stem,
  };
}

/**
 * One query's released top results. An entry lacking a documented field is
 * skipped; an empty `test_results` is the documented mark of a pair the
 * execution cache does not hold, counted as such and never checked against
 * the suite's length.
 */
function topResults(
  entries: unknown[],
  q: ReleasedQuery,
  corpus: ReadonlyMap<string, ReleasedSnippet>,
  refuse: (reason: string) => void,
  note: (place: string, kind: Parameters<Findings["note"]>[2], example: string) => void,
): TopResult[] {
  const qid = q.query_id;
  const top: TopResult[] = [];
  for (const [j, r] of entries.entries()) {
    const at = `${qid} rank ${j + 1}`;
    if (
      !isObject(r) || !isId(r.corpus_id) || !isNumber(r.similarity) ||
      typeof r.passes_all_tests !== "boolean" || !isStringList(r.test_results)
    ) {
      note(
        TOP_PLACE,
        "malformed_entry",
        `${at}: needs corpus_id, similarity, passes_all_tests, test_results`,
      );
      continue;
    }
    const cid = String(r.corpus_id);
    const snippet = corpus.get(cid);
    if (!snippet) {
      refuse(`query id ${qid}, top_results[${j}]: corpus id ${cid} is not in the corpus`);
      continue;
    }
    if (r.rank !== j + 1) {
      note(`${TOP_PLACE}.rank`, "rank_differs", `${at}: rank ${JSON.stringify(r.rank)}`);
    }
    if (r.label !== snippet.label) {
      note(
        `${TOP_PLACE}.label`,
        "label_differs",
        `${at} (${cid}): ${r.label}, corpus says ${snippet.label}`,
      );
    }
    // "" and an absent key mean the same (data/README.md).
    const bugType = typeof r.bug_type === "string" ? r.bug_type : "";
    if (bugType !== (snippet.bug_type ?? "")) {
      note(
        `${TOP_PLACE}.bug_type`,
        "bug_type_differs",
        `${at} (${cid}): "${bugType}", corpus says "${snippet.bug_type ?? ""}"`,
      );
    }
    const outcomes = r.test_results;
    if (outcomes.length === 0) {
      note(`${TOP_PLACE}.test_results`, "not_in_cache", `${at} (${cid})`);
      if (r.passes_all_tests) {
        note(`${TOP_PLACE}.passes_all_tests`, "pass_flag_disagrees", `${at}: true, no outcomes`);
      }
    } else {
      if (outcomes.length !== q.test_suite.length) {
        note(
          `${TOP_PLACE}.test_results`,
          "test_count_differs",
          `${at}: ${outcomes.length} for ${q.test_suite.length} tests`,
        );
      }
      const unknown = outcomes.find((o) => !OUTCOME.test(o));
      if (unknown !== undefined) {
        note(`${TOP_PLACE}.test_results`, "unknown_outcome", `${at}: ${JSON.stringify(unknown)}`);
      }
      if (r.passes_all_tests !== outcomes.every((o) => o === "pass")) {
        note(
          `${TOP_PLACE}.passes_all_tests`,
          "pass_flag_disagrees",
          `${at}: ${r.passes_all_tests} for ${JSON.stringify(outcomes)}`,
        );
      }
    }
    const previous = top[top.length - 1];
    if (previous && r.similarity > previous.similarity) {
      note(
        `${TOP_PLACE}.similarity`,
        "similarity_rises",
        `${at}: ${previous.similarity} → ${r.similarity}`,
      );
    }
    top.push({
      rank: j + 1,
      corpus_id: cid,
      label: String(r.label),
      bug_type: bugType,
      similarity: r.similarity,
      passes_all_tests: r.passes_all_tests,
      test_results: outcomes,
    });
  }
  return top;
}
