import { join } from "node:path";
import { type TableSpec, writeTable } from "../io/arrow_table.ts";
import { outDir } from "../io/paths.ts";
import { progress } from "../io/progress.ts";
import type { Reject } from "../io/rejects.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { createPool, type Runtime } from "../oracle/pool.ts";
import { readReleaseDistractors } from "./release_tasks.ts";
import { CORPUS, EXECUTIONS, QUERIES, RANKINGS, TASKS } from "../tables/schema.ts";
import { auditCache } from "./audit_cache.ts";
import { auditNumbers } from "./audit_numbers.ts";
import { AUDIT, type AuditRow, type AuditSummary, summarizeAudit } from "./audit_row.ts";
import { detectTestsRule } from "./cache_keys.ts";
import {
  AUDIT_MUTATIONS,
  compareMutants,
  mutationAuditRows,
  type MutationSummaryRow,
  summarizeMutants,
} from "./compare_mutants.ts";
import { kitAuditStats } from "./kit_stats.ts";
import { type Bundle, readBundle } from "./read_bundle.ts";
import { AUDIT_EXECUTIONS, reexecute, reexecutionRows } from "./reexecute.ts";
import { releaseTables } from "./release_tables.ts";

/** Folder of the imported release's tables (apart from a default run's `out/tables`). */
export function releaseTablesDir(): string {
  return join(outDir(), "release", "tables");
}

/** Path of one imported-release table. */
export function releaseTablePath(name: string): string {
  return join(releaseTablesDir(), `${name}.arrow`);
}

/** Options of {@link importRelease}. */
export interface ImportOptions {
  /** Re-execute the released snippets in the kit's sandbox (default true). */
  reexecute?: boolean;
  /** Compare the released distractors with the mutation engine's (default true). */
  mutate?: boolean;
  runtime?: Runtime;
  workers?: number;
  timeoutMs?: number;
  quiet?: boolean;
}

/** What {@link importRelease} found and wrote. */
export interface ImportResult {
  dir: string;
  tablesDir: string;
  counts: { queries: number; corpus: number; cache: number; models: number; pairs: number };
  testsKeyRule: string;
  summary: AuditSummary;
  mismatches: AuditRow[];
  /** Disagreements between the bundle's verdicts and its own cache. */
  cacheDetails: string[];
  /** Queries the sources stage's release reader rejected (to go in the import rejects). */
  rejects: Reject[];
  /** Re-executed test outcomes differing from the cache, as lines. */
  executionDetails: string[];
  mutations: MutationSummaryRow[] | null;
}

/**
 * `execret import-release`: read and validate a released bundle (throws a
 * `BundleError` naming the first problem), load it as the kit's tables
 * under `out/release/tables/` (tasks, queries, corpus, executions,
 * rankings), audit every released number against the kit's recomputation,
 * re-execute the released snippets and compare the released distractors with
 * the mutation engine. Writes the `audit`, `audit_executions` and
 * `audit_mutations` tables beside the others; a skipped step removes its
 * table from an earlier import, so the folder never mixes two audits.
 */
export async function importRelease(
  dir: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const log = (m: string) => {
    if (!options.quiet) console.error(m);
  };
  const bundle = await readBundle(dir);
  log(
    `import-release: ${bundle.dir}: ${bundle.queries.length} queries, ${bundle.corpus.size} snippets, ` +
      `${bundle.cache.size} cache rows, ${bundle.runs.length} models, ${bundle.pairs.length} pairs`,
  );
  const detected = detectTestsRule(bundle);
  const tables = await releaseTables(bundle, detected.rule);
  const write = (name: string, rows: readonly Record<string, unknown>[], spec: TableSpec) =>
    writeTable(`release_${name}`, rows, spec, {
      path: releaseTablePath(name),
      // Parquet copies would land in the default run's out/parquet; keep the import apart.
      parquet: false,
      metadata: { stage: "import-release", bundle: bundle.dir },
    });
  await write("tasks", tables.tasks as unknown as Record<string, unknown>[], TASKS);
  await write("queries", tables.queries, QUERIES);
  await write("corpus", tables.corpus, CORPUS);
  await write("executions", tables.executions, EXECUTIONS);
  await write("rankings", tables.rankings, RANKINGS);

  const rows: AuditRow[] = auditNumbers(bundle, kitAuditStats(bundle.queries.length));
  // A query the sources stage's release reader refuses (say, a canonical that
  // does not parse) is missing from the tasks table: a finding, with its
  // reason in the rejects, that does not stop the audit of the numbers.
  rows.push({
    section: "tasks",
    subject: "all",
    metric: "",
    k: 0,
    quantity: "queries loaded as tasks",
    released: bundle.queries.length,
    recomputed: tables.tasks.length,
    tolerance: 0,
    match: bundle.queries.length === tables.tasks.length,
    locator: releaseTablePath("tasks"),
  });
  const cacheAudit = auditCache(bundle, detected);
  rows.push(...cacheAudit.rows);

  const executionDetails: string[] = [];
  if (!(options.reexecute ?? true)) await removeTable("audit_executions");
  else {
    const execRows = await reexecuteBundle(bundle, detected.rule, options);
    rows.push(
      ...reexecutionRows(execRows.rows, execRows.runtime, releaseTablePath("audit_executions")),
    );
    for (const r of execRows.rows) {
      if (!r.match) {
        executionDetails.push(
          `query ${r.query_id}, ${r.corpus_id}, test ${r.test_index}: released ${r.released}, kit ${r.recomputed}`,
        );
      }
    }
    await write(
      "audit_executions",
      execRows.rows as unknown as Record<string, unknown>[],
      AUDIT_EXECUTIONS,
    );
  }

  let mutations: MutationSummaryRow[] | null = null;
  if (!(options.mutate ?? true)) await removeTable("audit_mutations");
  else {
    const canonicals = new Map(tables.tasks.map((t) => [t.task_id, t.canonical]));
    const compared = compareMutants(
      await loadPythonParser(),
      canonicals,
      await readReleaseDistractors(bundle.dir),
    );
    mutations = summarizeMutants(compared);
    rows.push(...mutationAuditRows(mutations, releaseTablePath("audit_mutations")));
    await write(
      "audit_mutations",
      compared as unknown as Record<string, unknown>[],
      AUDIT_MUTATIONS,
    );
  }

  await write("audit", rows as unknown as Record<string, unknown>[], AUDIT);
  return {
    dir: bundle.dir,
    tablesDir: releaseTablesDir(),
    counts: {
      queries: bundle.queries.length,
      corpus: bundle.corpus.size,
      cache: bundle.cache.size,
      models: bundle.runs.length,
      pairs: bundle.pairs.length,
    },
    testsKeyRule: detected.rule,
    summary: summarizeAudit(rows),
    mismatches: rows.filter((r) => r.match === false),
    cacheDetails: cacheAudit.details,
    rejects: tables.rejects,
    executionDetails,
    mutations,
  };
}

async function removeTable(name: string): Promise<void> {
  try {
    await Deno.remove(releaseTablePath(name));
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

async function reexecuteBundle(
  bundle: Bundle,
  rule: ReturnType<typeof detectTestsRule>["rule"],
  options: ImportOptions,
) {
  const pool = await createPool({
    runtime: options.runtime ?? "pyodide",
    workers: options.workers,
    timeoutMs: options.timeoutMs,
  });
  try {
    const total = bundle.queries.reduce(
      (n, q) => n + q.correct_corpus_ids.length + q.paired_distractor_corpus_ids.length,
      0,
    );
    const bar = progress("import-release: re-execute", total, { quiet: options.quiet });
    const rows = await reexecute(bundle, rule, pool, (n) => bar.tick(n));
    bar.done();
    return { rows, runtime: pool.runtime };
  } finally {
    pool.close();
  }
}
