import { type AuditRow, exactCountRow } from "./audit_row.ts";
import { cacheEntryFor, type DetectedRule, type TestsHashRule } from "./cache_keys.ts";
import type { Bundle } from "./read_bundle.ts";

/** Count rows plus one line per disagreement, naming the file and ids. */
export interface CacheAudit {
  rows: AuditRow[];
  details: string[];
}

/**
 * Check the bundle's execution verdicts against its own execution cache:
 * that the cache has the own-task pairs under the detected key rule, that
 * every canonical passes its query's tests and every paired distractor fails
 * one, and that each model's top results (`passes_all_tests`,
 * `test_results`) are what the cache says. Also counts, per model, the top
 * results whose execution verdict and correct-id label disagree: when there
 * are none, "relevant" means the same under either reading, and precision@k
 * and nDCG@k do not depend on which one the paper used.
 */
export function auditCache(bundle: Bundle, detected: DetectedRule): CacheAudit {
  const rule: TestsHashRule = detected.rule;
  const rows: AuditRow[] = [];
  const details: string[] = [];
  const cacheFile = bundle.files.cache;
  const count = (
    section: string,
    subject: string,
    quantity: string,
    expected: number,
    found: number,
    locator: string,
  ) => rows.push(exactCountRow(section, subject, quantity, expected, found, locator));

  count(
    "executions",
    "all",
    `own-task pairs in cache (tests key: ${rule})`,
    detected.pairs,
    detected.hits[rule],
    cacheFile,
  );

  let canonicals = 0, passing = 0, distractors = 0, failing = 0;
  for (const q of bundle.queries) {
    for (const id of q.correct_corpus_ids) {
      canonicals++;
      const e = cacheEntryFor(bundle, rule, bundle.corpus.get(id)!.code, q.test_suite);
      if (e && e.outcomes.every((o) => o === "pass")) passing++;
      else {
        details.push(`${q.locator}: canonical ${id} ${e ? "fails" : "has no cache entry"}`);
      }
    }
    for (const id of q.paired_distractor_corpus_ids) {
      distractors++;
      const e = cacheEntryFor(bundle, rule, bundle.corpus.get(id)!.code, q.test_suite);
      if (e && e.outcomes.some((o) => o !== "pass")) failing++;
      else {
        details.push(
          `${q.locator}: distractor ${id} ${e ? "passes every test" : "has no cache entry"}`,
        );
      }
    }
  }
  count("executions", "all", "canonicals passing (cache)", canonicals, passing, cacheFile);
  count("executions", "all", "distractors failing (cache)", distractors, failing, cacheFile);

  const queryOf = new Map(bundle.queries.map((q) => [q.query_id, q]));
  for (const run of bundle.runs) {
    let total = 0, cached = 0, agree = 0, sameVerdict = 0;
    for (const pq of run.per_query) {
      const q = queryOf.get(pq.query_id)!;
      const correct = new Set(q.correct_corpus_ids);
      for (const r of pq.top_results) {
        total++;
        if (r.passes_all_tests === correct.has(r.corpus_id)) sameVerdict++;
        const e = cacheEntryFor(bundle, rule, bundle.corpus.get(r.corpus_id)!.code, q.test_suite);
        // A cache need not hold other tasks' snippets against this query's
        // tests; only a cached pair can be checked.
        if (!e) continue;
        cached++;
        if (e.outcomes.join("\n") === r.test_results.join("\n")) agree++;
        else {
          details.push(
            `${run.file}: query ${q.query_id} rank ${r.rank} (${r.corpus_id}): test_results differ from the execution cache (${e.locator})`,
          );
        }
      }
    }
    count(
      "executions",
      run.model,
      "cached top results agreeing with cache",
      cached,
      agree,
      run.file,
    );
    if (total > cached) {
      rows.push({
        section: "executions",
        subject: run.model,
        metric: "",
        k: 0,
        quantity: "top results not in the cache (not checkable)",
        released: total - cached,
        recomputed: null,
        tolerance: null,
        match: null,
        locator: run.file,
      });
    }
    count(
      "relevance",
      run.model,
      "top results where passes_all_tests = is a correct id",
      total,
      sameVerdict,
      run.file,
    );
  }
  return { rows, details };
}
