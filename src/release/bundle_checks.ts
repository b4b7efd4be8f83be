import type { Bundle } from "./bundle_types.ts";
import { cacheEntryFor, kitOutcome, type TestsHashRule } from "./cache_keys.ts";
import type { Findings } from "./findings.ts";
import { metricKey } from "./metric_key.ts";

/**
 * The checks that set one released file against another, as findings: the
 * execution cache against each query's own pool (every canonical passes,
 * every paired distractor fails), each results file's outcomes against the
 * cache, the pass flags against the correct ids, the leaderboard against
 * the results files, and the paired differences against the pairwise tests.
 */
export function crossCheck(bundle: Bundle, rule: TestsHashRule, findings: Findings): void {
  checkOwnPairs(bundle, rule, findings);
  checkTopResults(bundle, rule, findings);
  checkLeaderboard(bundle, findings);
  checkDifferences(bundle, findings);
}

function checkOwnPairs(bundle: Bundle, rule: TestsHashRule, findings: Findings): void {
  const file = bundle.files.cache;
  for (const q of bundle.queries) {
    for (
      const [ids, role] of [[q.correct_corpus_ids, "correct"], [
        q.paired_distractor_corpus_ids,
        "distractor",
      ]] as const
    ) {
      for (const id of ids) {
        const e = cacheEntryFor(bundle, rule, bundle.corpus.get(id)!.code, q.test_suite);
        const at = `${q.query_id} ${role} ${id}`;
        if (!e) findings.note(file, "", "own_pair_not_in_cache", at);
        else if (role === "correct" && !e.outcomes.every((o) => o === "pass")) {
          findings.note(
            file,
            "test_results",
            "canonical_fails_in_cache",
            `${at}: ${JSON.stringify(e.outcomes)}`,
          );
        } else if (role === "distractor" && e.outcomes.every((o) => o === "pass")) {
          findings.note(file, "test_results", "distractor_passes_in_cache", at);
        }
      }
    }
  }
}

const PLACE = "per_query[].top_results[]";

function checkTopResults(bundle: Bundle, rule: TestsHashRule, findings: Findings): void {
  const queryOf = new Map(bundle.queries.map((q) => [q.query_id, q]));
  for (const run of bundle.runs) {
    for (const pq of run.per_query) {
      const q = queryOf.get(pq.query_id)!;
      const correct = new Set(q.correct_corpus_ids);
      for (const r of pq.top_results) {
        const at = `${q.query_id} rank ${r.rank} (${r.corpus_id})`;
        const e = cacheEntryFor(bundle, rule, bundle.corpus.get(r.corpus_id)!.code, q.test_suite);
        if (r.test_results.length === 0) {
          if (e) findings.note(run.file, `${PLACE}.test_results`, "empty_but_in_cache", at);
        } else if (!e) {
          findings.note(run.file, `${PLACE}.test_results`, "listed_but_not_in_cache", at);
        } else if (
          // `FAIL: <message>` is a FAIL (results/README.md): a list without the
          // messages (the kit's own result files) says the same.
          e.outcomes.map(kitOutcome).join("\n") !== r.test_results.map(kitOutcome).join("\n")
        ) {
          findings.note(
            run.file,
            `${PLACE}.test_results`,
            "differs_from_cache",
            `${at}, cache line ${e.locator.slice(e.locator.lastIndexOf(":") + 1)}`,
          );
        }
        if (r.passes_all_tests && !correct.has(r.corpus_id)) {
          findings.note(run.file, `${PLACE}.passes_all_tests`, "passes_but_not_correct", at);
        } else if (!r.passes_all_tests && correct.has(r.corpus_id)) {
          findings.note(run.file, `${PLACE}.passes_all_tests`, "correct_but_fails", at);
        }
      }
    }
  }
}

/**
 * How far two written numbers of one quantity may lie apart: half a unit of
 * the last decimal each is written with (each was rounded once).
 */
function roundingOf(...values: number[]): number {
  const decimals = (v: number) => {
    const text = String(v);
    if (text.includes("e-")) return Number(text.split("e-")[1]) + 6;
    return text.includes(".") ? text.split(".")[1].length : 0;
  };
  return values.reduce((sum, v) => sum + 0.5 * 10 ** -decimals(v), 1e-12);
}

function checkLeaderboard(bundle: Bundle, findings: Findings): void {
  const file = bundle.files.leaderboard;
  if (file === null) return;
  const runs = new Map(bundle.runs.map((r) => [r.model, r]));
  for (const row of bundle.leaderboard) {
    const run = runs.get(String(row.model));
    if (!run) continue;
    for (const [name, value] of Object.entries(row)) {
      const released = run.metrics[name];
      if (!metricKey(name) || typeof value !== "number" || released === undefined) continue;
      if (Math.abs(value - released) > roundingOf(value, released)) {
        findings.note(
          file,
          `[].${name}`,
          "leaderboard_differs",
          `${run.model}: ${value}, results ${released}`,
        );
      }
    }
  }
}

function checkDifferences(bundle: Bundle, findings: Findings): void {
  const file = bundle.files.pairedDifferences;
  if (file === null) return;
  const pairs = new Map(bundle.pairs.map((p) => [p.key, p]));
  for (const d of bundle.differences) {
    const [a, b, sign] = d.a < d.b ? [d.a, d.b, 1] : [d.b, d.a, -1];
    const delta = pairs.get(`${a} vs ${b}`)?.metrics[d.metric]?.delta;
    if (delta === undefined) continue;
    if (Math.abs(sign * delta - d.mean_difference) > roundingOf(d.mean_difference, delta)) {
      findings.note(
        file,
        `"A minus B".${d.metric}.mean_difference`,
        "difference_differs",
        `${d.key}: ${d.mean_difference}, pairwise delta ${sign * delta}`,
      );
    }
  }
}
