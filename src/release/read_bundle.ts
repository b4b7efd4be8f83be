import { join } from "node:path";
import { BundleError, type BundleProblem } from "./bundle_problem.ts";
import { EMBEDDINGS_DIR, locateFiles, resolveBundleDir } from "./bundle_files.ts";
import { crossCheck } from "./bundle_checks.ts";
import type { Bundle } from "./bundle_types.ts";
import { detectTestsRule } from "./cache_keys.ts";
import { findingCollector } from "./findings.ts";
import { readCache, readCorpus, readQueries } from "./read_data.ts";
import { readRuns } from "./read_results.ts";
import {
  findEmbeddings,
  readDifferences,
  readIntervals,
  readPairs,
  readRowList,
} from "./read_tests.ts";

/**
 * Read a released bundle: the kit's one reader of the release, used by every
 * stage of a release run. A bundle is refused (one {@link BundleError}
 * listing every problem) only where recomputation is impossible: a file the
 * kit needs, or one SHA256SUMS lists, is missing; a file cannot be parsed;
 * an id a query or a ranking names does not exist, or exists twice; a
 * results file has no model id. Everything else it notices — the documented
 * empty outcome list of a pair outside the execution cache, a pass flag that
 * disagrees with its outcomes, a similarity that rises, a number that is
 * missing — is counted in `findings` (the `release_findings` table), and the
 * run goes on.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const bundle = await readBundle("test/fixtures/release/paper");
 * deepStrictEqual(bundle.runs.map((r) => r.model), [
 *   "BM25",
 *   "acme/embed-small",
 *   "nimbus/code-v2",
 *   "sentence-transformers/dotty-base-dot-v1",
 * ]);
 * ```
 */
export async function readBundle(dir: string): Promise<Bundle> {
  const root = await resolveBundleDir(dir);
  const problems: BundleProblem[] = [];
  const report = (locator: string, reason: string) => problems.push({ locator, reason });
  const findings = findingCollector(root);

  const files = await locateFiles(root, problems, findings);
  if (problems.length) throw new BundleError(problems);
  const data = await readCorpus(files.corpus, problems);
  const queries = await readQueries(files.queries, data, problems, findings);
  if (problems.length) throw new BundleError(problems);
  const cache = await readCache(files.cache, findings);
  const runs = await readRuns(files.results, queries, data.corpus, problems, findings);
  const models = runs.map((r) => r.model);
  const leaderboard = await readRowList(files.leaderboard, models, report, findings);
  // BM25 needs no invocation; a dense system without one is refused where
  // its similarity is read (bundle_source.ts).
  const invocations = await readRowList(files.invocations, [], report, findings);
  const pairs = await readPairs(files.pairwise, models, report, findings);
  const intervals = await readIntervals(files.intervals, models, report, findings);
  const differences = await readDifferences(files.pairedDifferences, models, report, findings);
  const embeddings = await findEmbeddings(join(root, EMBEDDINGS_DIR), runs, findings);
  if (problems.length) throw new BundleError(problems);
  const bundle: Bundle = {
    dir: root,
    files,
    queries,
    corpus: data.corpus,
    cache,
    runs,
    leaderboard,
    invocations,
    pairs,
    intervals,
    differences,
    embeddings,
    findings: [],
  };
  crossCheck(bundle, detectTestsRule(bundle).rule, findings);
  bundle.findings = findings.rows();
  return bundle;
}
