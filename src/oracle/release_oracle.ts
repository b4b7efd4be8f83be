import { readTableRows, type RowOf, writeTable } from "../io/arrow_table.ts";
import {
  ORACLE_AGREEMENT,
  ORACLE_DISAGREEMENTS,
  ORACLE_NOT_IN_RELEASE,
  RELEASED_CORPUS,
} from "../tables/release.ts";
import { tablePath } from "../io/paths.ts";
import { type Reject, writeRejects } from "../tables/rejects.ts";
import { type TaskRow, VALIDATION } from "../tables/schema.ts";
import type { Bundle } from "../release/bundle_types.ts";
import { allPass, timeoutOnly } from "./outcome.ts";
import type { Runtime } from "./pool.ts";
import { type SuiteResult, SuiteRunner } from "./run_suites.ts";
import { EXECUTION_TIMES, EXECUTIONS, LIMIT_MARGINS, QUERIES, TASKS } from "../tables/schema.ts";
import { limitMargins } from "./limit_margins.ts";
import { cacheEntryFor, detectTestsRule, kitOutcome } from "../release/cache_keys.ts";
import { readBundle } from "../release/read_bundle.ts";
import { releasedCorpusRow, releasedQueryRows } from "./release_table_rows.ts";

/** Options of {@link runReleaseOracleStage}. */
export interface ReleaseOracleOptions {
  bundleDir: string;
  runtime?: Runtime;
  workers?: number;
  timeoutMs?: number;
  quiet?: boolean;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The oracle stage of a release profile. The benchmark is the release's own:
 * every released snippet stays in the pool under its released id and label,
 * whatever the kit's sandbox finds, so that the kit scores exactly what the
 * paper scored. Each query's canonical and paired distractors are
 * re-executed against its released suite (cached and resumable like the
 * default oracle), and every verdict and test outcome is set beside the
 * release's execution cache in `oracle_agreement` and
 * `oracle_disagreements`. The pairs a released top 10 lists with no outcomes
 * (another query's snippet: not in the release's cache, results/README.md)
 * are run too, and set apart in `oracle_not_in_release`, not counted as
 * disagreements. Writes the usual `executions`, `execution_times`,
 * `queries`, `corpus` and `validation` tables.
 */
export async function runReleaseOracleStage(options: ReleaseOracleOptions): Promise<{
  tables: Record<string, string>;
  agreement: { snippets: number; agreeing: number; tests: number; testsAgreeing: number };
}> {
  const bundle = await readBundle(options.bundleDir);
  const { rule } = detectTestsRule(bundle);
  const tasks = await readTableRows(tablePath("tasks"), TASKS);
  const taskOf = new Map(tasks.filter((t) => t.source === "release").map((t) => [t.source_id, t]));
  const timeoutMs = options.timeoutMs ?? 1000;
  const runner = await SuiteRunner.open({
    runtime: options.runtime ?? "pyodide",
    workers: options.workers,
    timeoutMs,
    quiet: options.quiet,
    label: "oracle (release)",
  });
  const rejects: Reject[] = [];
  const ownerOf = new Map<string, TaskRow>();
  interface Job {
    task: TaskRow;
    corpusId: string;
    tests: string[];
    result: Promise<SuiteResult>;
  }
  const jobs: Job[] = [];
  const unreleased = notInRelease(bundle, taskOf);
  try {
    for (const q of bundle.queries) {
      const task = taskOf.get(q.query_id);
      if (!task) {
        rejects.push({
          stage: "oracle",
          source: "release",
          locator: q.locator,
          reason: `query ${q.query_id} is not among the tasks (see the tasks rejects)`,
        });
        continue;
      }
      for (const id of [...q.correct_corpus_ids, ...q.paired_distractor_corpus_ids]) {
        ownerOf.set(id, task);
        const code = bundle.corpus.get(id)!.code;
        jobs.push({
          task,
          corpusId: id,
          tests: q.test_suite,
          result: runner.run({ setup: "", code, tests: q.test_suite }),
        });
      }
    }
    for (const u of unreleased) {
      u.result = runner.run({
        setup: "",
        code: bundle.corpus.get(u.corpusId)!.code,
        tests: u.tests,
      });
    }
    await Promise.all([...jobs.map((j) => j.result), ...unreleased.map((u) => u.result)]);
  } finally {
    await runner.close();
  }
  const runtime = runner.runtime;

  const agreement: RowOf<typeof ORACLE_AGREEMENT>[] = [];
  const disagreements: RowOf<typeof ORACLE_DISAGREEMENTS>[] = [];
  const kitOutcomes = new Map<string, SuiteResult["outcomes"]>();
  const executions: RowOf<typeof EXECUTIONS>[] = [];
  const times: RowOf<typeof EXECUTION_TIMES>[] = [];
  const seen = new Set<string>();
  /** A suite's rows of executions and execution_times, once per snippet and tests. */
  const recordExecutions = (r: SuiteResult) => {
    const key = `${r.codeSha}:${r.testsSha}`;
    if (seen.has(key)) return;
    seen.add(key);
    r.outcomes.forEach((o, i) => {
      const row = { code_sha256: r.codeSha, tests_sha256: r.testsSha, runtime, test_index: i };
      executions.push({ ...row, outcome: o.outcome });
      times.push({ ...row, ms: o.ms, cpu_ms: o.cpuMs ?? null });
    });
  };
  const counts = new Map<string, number>();
  const count = (gate: string, n = 1) => counts.set(gate, (counts.get(gate) ?? 0) + n);
  for (const job of jobs) {
    const r = await job.result;
    const snippet = bundle.corpus.get(job.corpusId)!;
    const released = cacheEntryFor(bundle, rule, snippet.code, job.tests)?.outcomes;
    const ours = r.outcomes.map((o) => o.outcome as string);
    kitOutcomes.set(job.corpusId, r.outcomes);
    let same = 0;
    ours.forEach((o, i) => {
      const rel = released?.[i];
      if (rel !== undefined && kitOutcome(rel) === o) same++;
      else {
        disagreements.push({
          query_id: job.task.task_id,
          corpus_id: job.corpusId,
          test_index: i,
          released: rel ?? null,
          kit: o,
          runtime,
        });
      }
    });
    const kitPass = allPass(r.outcomes);
    const releasedPass = released ? released.every((o) => o === "pass") : null;
    const agree = released !== undefined && released.length === ours.length && same === ours.length;
    agreement.push({
      query_id: job.task.task_id,
      corpus_id: job.corpusId,
      label: snippet.label,
      bug_type: snippet.bug_type,
      tests: ours.length,
      tests_agreeing: same,
      released_pass: releasedPass,
      kit_pass: kitPass,
      agree,
    });
    const role = snippet.label === "correct" ? "canonical" : "distractor";
    count(`${role}s_released`);
    count(`${role}_${kitPass ? "pass" : "fail"}`);
    if (released === undefined) count(`${role}_not_in_release_cache`);
    count(agree ? "snippets_agreeing" : "snippets_disagreeing");
    count("tests_agreeing", same);
    count("tests_disagreeing", ours.length - same);

    recordExecutions(r);
  }

  const notInReleaseRows: RowOf<typeof ORACLE_NOT_IN_RELEASE>[] = [];
  for (const u of unreleased) {
    const r = await u.result!;
    const snippet = bundle.corpus.get(u.corpusId)!;
    const kitPass = allPass(r.outcomes);
    notInReleaseRows.push({
      query_id: u.task.task_id,
      corpus_id: u.corpusId,
      label: snippet.label,
      bug_type: snippet.bug_type,
      tests: r.outcomes.length,
      kit_pass: kitPass,
      listed_by: u.listedBy,
    });
    count("not_in_release_pairs");
    count("not_in_release_listings", u.listedBy);
    if (kitPass) count("not_in_release_kit_pass");
    recordExecutions(r);
  }

  const queries = releasedQueryRows(bundle, taskOf);
  // The whole released pool, including snippets of queries the tasks stage
  // refused: they are still what every released ranking ranked against.
  const corpus = [...bundle.corpus.values()].map((s) => {
    const ours = kitOutcomes.get(s.corpus_id);
    const flagged = s.label === "correct" ? false : ours ? timeoutOnly(ours) : null;
    return releasedCorpusRow(s, ownerOf.get(s.corpus_id), flagged);
  });
  count("queries_released", bundle.queries.length);
  count("queries_kept", queries.length);
  count("corpus_released", bundle.corpus.size);
  for (const s of bundle.corpus.values()) {
    if (s.bug_type) count(`bug_type:${s.bug_type}`);
  }

  type SuiteTest = { code_sha256: string; tests_sha256: string; test_index: number };
  const bySuiteAndTest = (a: SuiteTest, b: SuiteTest) =>
    byString(a.code_sha256, b.code_sha256) ||
    byString(a.tests_sha256, b.tests_sha256) ||
    a.test_index - b.test_index;
  type QueryCorpus = { query_id: string; corpus_id: string; test_index?: number };
  const byQueryCorpus = (a: QueryCorpus, b: QueryCorpus) =>
    byString(a.query_id, b.query_id) ||
    byString(a.corpus_id, b.corpus_id) ||
    (a.test_index ?? 0) - (b.test_index ?? 0);
  executions.sort(bySuiteAndTest);
  times.sort(bySuiteAndTest);
  agreement.sort(byQueryCorpus);
  disagreements.sort(byQueryCorpus);
  notInReleaseRows.sort(byQueryCorpus);
  queries.sort((a, b) => byString(a.query_id, b.query_id));
  corpus.sort((a, b) => byString(a.corpus_id, b.corpus_id));
  const validation = [...counts.entries()]
    .map(([gate, n]) => ({ gate, source: "release", count: n }))
    .sort((a, b) => byString(a.gate, b.gate));

  const metadata = { runtime, timeout_ms: String(timeoutMs), bundle: bundle.dir, tests_key: rule };
  const tables: Record<string, string> = {
    executions: await writeTable("executions", executions, EXECUTIONS, { metadata }),
    execution_times: await writeTable("execution_times", times, EXECUTION_TIMES, { metadata }),
    limit_margins: await writeTable(
      "limit_margins",
      limitMargins(
        jobs.filter((j) => bundle.corpus.get(j.corpusId)!.label === "correct").map((j) => ({
          task_id: j.task.task_id,
          setup: "",
          code: bundle.corpus.get(j.corpusId)!.code,
          tests: j.tests,
        })),
        times,
        executions,
        timeoutMs,
      ),
      LIMIT_MARGINS,
      { metadata },
    ),
    queries: await writeTable("queries", queries, QUERIES, { metadata }),
    corpus: await writeTable("corpus", corpus, RELEASED_CORPUS, { metadata }),
    validation: await writeTable("validation", validation, VALIDATION, { metadata }),
    oracle_agreement: await writeTable("oracle_agreement", agreement, ORACLE_AGREEMENT, {
      metadata,
    }),
    oracle_disagreements: await writeTable(
      "oracle_disagreements",
      disagreements,
      ORACLE_DISAGREEMENTS,
      { metadata },
    ),
    oracle_not_in_release: await writeTable(
      "oracle_not_in_release",
      notInReleaseRows,
      ORACLE_NOT_IN_RELEASE,
      { metadata },
    ),
  };
  await writeRejects("oracle", rejects);
  const testsTotal = agreement.reduce((n, r) => n + (r.tests as number), 0);
  return {
    tables,
    agreement: {
      snippets: agreement.length,
      agreeing: agreement.filter((r) => r.agree).length,
      tests: testsTotal,
      testsAgreeing: testsTotal - disagreements.length,
    },
  };
}

/** A pair the release lists in a top 10 with no outcomes, to run. */
interface Unreleased {
  task: TaskRow;
  corpusId: string;
  tests: string[];
  /** How many results files list it. */
  listedBy: number;
  result?: Promise<SuiteResult>;
}

/**
 * Every (query, snippet) pair some released top 10 lists with an empty
 * `test_results` (the documented mark of a pair outside the execution
 * cache), once, for a query the tasks stage kept.
 */
function notInRelease(bundle: Bundle, taskOf: ReadonlyMap<string, TaskRow>): Unreleased[] {
  const queryOf = new Map(bundle.queries.map((q) => [q.query_id, q]));
  const pairs = new Map<string, Unreleased>();
  for (const run of bundle.runs) {
    for (const pq of run.per_query) {
      const task = taskOf.get(pq.query_id);
      if (!task) continue;
      for (const r of pq.top_results) {
        if (r.test_results.length > 0) continue;
        const key = `${pq.query_id}\u0000${r.corpus_id}`;
        const known = pairs.get(key);
        if (known) known.listedBy++;
        else {
          pairs.set(key, {
            task,
            corpusId: r.corpus_id,
            tests: queryOf.get(pq.query_id)!.test_suite,
            listedBy: 1,
          });
        }
      }
    }
  }
  return [...pairs.values()];
}
