import { pick, readTableRows, writeTable } from "../io/arrow_table.ts";
import { METRICS, PAIRWISE, RANKINGS, TASKS } from "../tables/schema.ts";
import { tablePath } from "../io/paths.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { readReleaseDistractors } from "../tasks/release_tasks.ts";
import { releasedSystems } from "../release/bundle_source.ts";
import { compareMutants } from "./compare_mutants.ts";
import {
  PAPER_COMPARISON,
  RANKING_AGREEMENT,
  RANKING_DIFFERENCES,
  RELEASE_MUTATIONS,
} from "../tables/release.ts";
import type { Bundle } from "../release/bundle_types.ts";
import { comparePaper } from "./paper_comparison.ts";
import { readBundle } from "../release/read_bundle.ts";
import { RELEASE_FINDINGS } from "../tables/release.ts";

/**
 * Released model id → the kit config that scores it: each dense system's
 * `paper-*` config, and the released BM25 → the kit's own `bm25` when the
 * profile runs it.
 */
export function releasedConfigMap(
  bundle: Bundle,
  configs: readonly string[],
): { configOf: Map<string, string>; kitOwn: Set<string> } {
  const configOf = new Map<string, string>();
  const kitOwn = new Set<string>();
  for (const s of releasedSystems(bundle)) {
    if (configs.includes(s.config)) configOf.set(s.model, s.config);
  }
  for (const run of bundle.runs) {
    if (configOf.has(run.model)) continue;
    const tail = run.model.slice(run.model.lastIndexOf("/") + 1).toLowerCase();
    if (tail === "bm25" && configs.includes("bm25")) {
      configOf.set(run.model, "bm25");
      kitOwn.add("bm25");
    }
  }
  return { configOf, kitOwn };
}

/**
 * The compare stage of a release profile: the paper's numbers beside the
 * kit's (`paper_comparison`), the agreement of the top-10 lists
 * (`ranking_agreement`, `ranking_differences`), the kit's mutation engine
 * run over the released canonicals, looking for each released distractor
 * (`release_mutations`), and what the reader noticed in the bundle without
 * refusing it (`release_findings`).
 */
export async function runCompareStage(
  options: { bundleDir: string; configs: readonly string[]; quiet?: boolean },
): Promise<{ flagged: number; compared: number; tables: Record<string, string> }> {
  const bundle = await readBundle(options.bundleDir);
  const { configOf, kitOwn } = releasedConfigMap(bundle, options.configs);
  const result = comparePaper({
    bundle,
    configOf,
    kitOwn,
    metrics: await readTableRows(tablePath("metrics"), METRICS),
    pairwise: await readTableRows(tablePath("pairwise"), PAIRWISE),
    rankings: await readTableRows(tablePath("rankings"), RANKINGS),
  });
  const tasks = await readTableRows(
    tablePath("tasks"),
    pick(TASKS, "task_id", "canonical", "source"),
  );
  const canonicals = new Map(
    tasks.filter((t) => t.source === "release").map((t) => [t.task_id, t.canonical]),
  );
  const mutations = compareMutants(
    await loadPythonParser(),
    canonicals,
    await readReleaseDistractors(bundle.dir),
  );
  const metadata = { bundle: bundle.dir };
  const tables: Record<string, string> = {
    paper_comparison: await writeTable("paper_comparison", result.comparison, PAPER_COMPARISON, {
      metadata,
    }),
    ranking_agreement: await writeTable("ranking_agreement", result.agreement, RANKING_AGREEMENT, {
      metadata,
    }),
    ranking_differences: await writeTable(
      "ranking_differences",
      result.differences,
      RANKING_DIFFERENCES,
      { metadata },
    ),
    release_mutations: await writeTable(
      "release_mutations",
      mutations,
      RELEASE_MUTATIONS,
      { metadata },
    ),
    release_findings: await writeTable("release_findings", bundle.findings, RELEASE_FINDINGS, {
      metadata,
    }),
  };
  const flagged = result.comparison.filter((r) => r.flagged).length;
  if (!options.quiet) {
    const noticed = bundle.findings.reduce((n, f) => n + f.count, 0);
    const documented = bundle.findings.filter((f) => f.documented).reduce((n, f) => n + f.count, 0);
    console.error(
      `compare: ${result.comparison.length} released numbers beside the kit's, ${flagged} flagged; ` +
        `${noticed} findings in the bundle (${documented} of documented cases)`,
    );
  }
  return { flagged, compared: result.comparison.length, tables };
}
