import { type Command, parseFlags, positiveInt, printJson, UserError } from "../command.ts";
import { writeRejects } from "../../io/rejects.ts";
import { BundleError, problemLine } from "../../release/bundle_problem.ts";
import { mismatchLine } from "../../release/audit_row.ts";
import { importRelease, type ImportResult } from "../../release/import_release.ts";
import { SourceError } from "../../sources/external.ts";

/** How many detail lines of each kind the text output lists. */
const SHOWN = 20;

/** `execret import-release`: load and audit the paper's released bundle. */
export const importReleaseCommand: Command = {
  name: "import-release",
  summary: "Load and audit the paper's released bundle",
  help: `usage: execret import-release DIR [--runtime pyodide|native] [--workers N]
                              [--timeout-ms N] [--no-exec] [--no-mutate] [--json] [--quiet]

Read the paper's released bundle from DIR (or from $EXECRET_MIRROR/DIR):
data/queries.jsonl, data/corpus.jsonl, data/execution_cache.jsonl,
results/<model>.json, results/full_leaderboard.json and
results/invocation_table.json (or those two at the root),
tests/pairwise_tests.json, tests/confidence_intervals.json. Anything missing,
malformed or inconsistent stops the import with one line naming the file and
line or id (all problems go to the import rejects, out/tables/rejects.arrow).

Then write the bundle as the kit's tables under out/release/tables/ (tasks,
queries, corpus, executions, rankings; a query the release task reader
rejects is left out, listed in the rejects and counted as a mismatch) and
audit it:
  - every aggregate metric (results files, leaderboard), confidence interval
    and pairwise entry is recomputed from the released rankings with the
    kit's metric and statistics functions. Metrics, rates, McNemar counts and
    exact p must match to the released precision; bootstrap endpoints (the
    kit's generator differs from the paper's) must fall within a 3-sigma
    Monte Carlo window of the kit's own replicates;
  - the bundle's verdicts are checked against its execution cache;
  - the released canonicals and distractors are re-executed in the kit's
    sandbox and compared test by test with the cache (FAIL:<msg> = FAIL);
  - the mutation engine runs over the released canonicals, and each released
    distractor is looked up among its candidates.
Results: out/release/tables/audit.arrow, audit_executions.arrow,
audit_mutations.arrow. Exit status 1 when any number does not match.

Options:
  --runtime R      sandbox for re-execution: pyodide (default) or native
  --workers N      sandbox workers (default: CPU count)
  --timeout-ms N   per-test timeout (default 1000)
  --no-exec        skip re-execution
  --no-mutate      skip the mutation comparison
  --json           print the result as JSON
  --quiet          no progress on stderr
  -h, --help       this text`,
  async run(args) {
    const { values, positionals } = parseFlags(args, {
      runtime: { type: "string" },
      workers: { type: "string" },
      "timeout-ms": { type: "string" },
      "no-exec": { type: "boolean" },
      "no-mutate": { type: "boolean" },
      quiet: { type: "boolean" },
    }, true);
    if (values.help) {
      console.log(this.help);
      return 0;
    }
    if (positionals.length !== 1) {
      throw new UserError("import-release needs exactly one bundle folder (see --help)", 2);
    }
    const runtime = values.runtime ?? "pyodide";
    if (runtime !== "pyodide" && runtime !== "native") {
      throw new UserError(`--runtime must be pyodide or native, got "${runtime}"`, 2);
    }
    let result: ImportResult;
    try {
      result = await importRelease(positionals[0], {
        reexecute: !values["no-exec"],
        mutate: !values["no-mutate"],
        runtime,
        workers: values.workers === undefined
          ? undefined
          : positiveInt("workers", values.workers, 1),
        timeoutMs: positiveInt("timeout-ms", values["timeout-ms"], 1000),
        quiet: values.quiet ?? false,
      });
    } catch (e) {
      if (e instanceof BundleError) {
        await writeRejects(
          "import",
          e.problems.map((p) => ({ stage: "import", source: "release", ...p })),
        );
        if (!values.quiet) {
          for (const p of e.problems.slice(1, SHOWN)) console.error(`  ${problemLine(p)}`);
        }
        throw new UserError(e.message);
      }
      if (e instanceof SourceError) throw new UserError(e.message);
      throw e;
    }
    await writeRejects(
      "import",
      result.rejects.map((r) => ({ ...r, stage: "import", source: "release" })),
    );
    if (values.json) printJson(result);
    else console.log(formatResult(result));
    return result.summary.mismatched > 0 ? 1 : 0;
  },
};

/** The text report: counts, the audit summary, mismatches and comparisons. */
export function formatResult(r: ImportResult): string {
  const s = r.summary;
  const lines = [
    `bundle ${r.dir}: ${r.counts.queries} queries, ${r.counts.corpus} snippets, ` +
    `${r.counts.cache} cache rows, ${r.counts.models} models, ${r.counts.pairs} pairs ` +
    `(tests key: ${r.testsKeyRule})`,
    `tables: ${r.tablesDir}`,
    `audit: ${s.checked} numbers checked, ${s.matched} matched, ${s.mismatched} mismatched` +
    (s.unchecked ? `, ${s.unchecked} not checkable` : ""),
  ];
  const list = (title: string, items: string[]) => {
    if (items.length === 0) return;
    lines.push(`${title} (${items.length}):`);
    for (const item of items.slice(0, SHOWN)) lines.push(`  ${item}`);
    if (items.length > SHOWN) lines.push(`  ... ${items.length - SHOWN} more in the audit table`);
  };
  list("mismatches", r.mismatches.map(mismatchLine));
  list("queries rejected by the release reader", r.rejects.map((x) => `${x.locator}: ${x.reason}`));
  list("cache disagreements", r.cacheDetails);
  list("re-execution disagreements", r.executionDetails);
  if (r.mutations) {
    lines.push("released distractors reproduced by the mutation engine:");
    lines.push("  bug type                  released  exact  modulo ws  same type");
    for (const m of r.mutations) {
      lines.push(
        `  ${m.bug_type.padEnd(24)}  ${String(m.released).padStart(8)}  ${
          String(m.exact).padStart(5)
        }  ${String(m.trailing_whitespace).padStart(9)}  ${String(m.same_bug_type).padStart(9)}`,
      );
    }
  }
  return lines.join("\n");
}
