import { join } from "node:path";
import { embeddingsDir, tablePath } from "../io/paths.ts";
import type { Profile } from "./profile.ts";
import type { StageInputs } from "./stamp.ts";
import { REPO_ROOT } from "./code_fingerprint.ts";
import { runTasksStage, sourceInputDigests } from "../tasks/tasks_stage.ts";
import { runMutateStage } from "../mutate/mutate_stage.ts";
import { runOracleStage } from "../oracle/oracle_stage.ts";
import { DRIVER_PATHS } from "../oracle/driver_source.ts";
import { runEmbedStage } from "../embed/embed_stage.ts";
import { invocationFor, userInvocationFiles } from "../embed/invocations.ts";
import { isSparse, providerEntry } from "../embed/provider_registry.ts";
import { runScoreStage } from "../score/score_stage.ts";
import { runStatsStage } from "../stats/stats_stage.ts";
import { runBoardStage } from "../leaderboard/stage.ts";
import { leaderboardDir, listEntries } from "../leaderboard/entries.ts";
import { resultsPath, writeResultsFiles } from "../results/results_stage.ts";
import { stageRejectFiles, summarizeRejects, writeCombinedRejects } from "../tables/rejects.ts";
import { pick, readTableRows } from "../io/arrow_table.ts";
import { UserError } from "../io/user_error.ts";
import { QUERIES, REJECTS } from "../tables/schema.ts";
import { runRerankStage } from "../rerank/rerank_stage.ts";
import { parseRerankConfig } from "../rerank/reranker_registry.ts";
import { runReleaseOracleStage } from "../oracle/release_oracle.ts";
import { isReleasePool } from "../release/bundle_source.ts";
import { runCompareStage } from "../compare/compare_stage.ts";
import { writeReleasedEmbeddings } from "../embed/release_embeddings.ts";
import { tablesOf } from "../tables/catalog.ts";
import {
  bundleDigests,
  bundleDirOf,
  configsOf,
  releasedSystemsOf,
  sourcesOf,
} from "./release_context.ts";

/** One pipeline stage as the orchestrator sees it. */
export interface StageDef {
  name: string;
  /** Stages whose outputs this one reads. */
  after: string[];
  /**
   * The pipeline tables (`out/tables/<name>.arrow`) the stage writes under
   * any profile: the one list `TABLE_STAGE` (which stage to make current
   * for a table) is derived from.
   */
  tables: readonly string[];
  /** What the outputs are a function of (for the stamp). */
  inputs(profile: Profile): Promise<StageInputs>;
  /** Files the stage writes (checked and stamped after it runs). */
  outputs(profile: Profile): Promise<string[]>;
  /** Run the stage (it prints its own progress unless quiet). */
  run(profile: Profile, quiet: boolean): Promise<unknown>;
  /**
   * Configs whose queries a low-priority background process may embed
   * while this stage runs (src/embed/prefetch.ts), for the embed stage to adopt.
   */
  prefetch?(profile: Profile): Promise<string[]>;
}

// The tree-sitter grammar is read from its package, not imported.
const GRAMMAR = "npm:tree-sitter-python";
// score's dot kernel runs its rows in workers (stats imports the kernel too).
const DOT_WORKER = "src/score/_dot_worker.ts";
const EMBED_WORKER = "src/embed/_embed_worker.ts";
const table = (name: string) => tablePath(name);

/** A committed file of the repository, wherever `execret` runs from. */
const committed = (path: string) => join(REPO_ROOT, path);

/** The invocation tables configs are read from: the built-in one and the user's own. */
function invocationTables(): string[] {
  return [committed("data/invocations.json"), ...userInvocationFiles()];
}

/** Every file of the benchmark's leaderboard entries (adding, changing or removing one reruns the board). */
function boardFiles(benchmark: string): string[] {
  return listEntries(leaderboardDir(), benchmark).flatMap((e) =>
    [...Deno.readDirSync(e.dir)].filter((f) => f.isFile).map((f) => join(e.dir, f.name)).sort()
  );
}

function mirrorFiles(): string[] {
  const mirror = Deno.env.get("EXECRET_MIRROR");
  return mirror ? [join(mirror, "mbpp.jsonl"), join(mirror, "HumanEval.jsonl.gz")] : [];
}

/** The profile's configs that the kit embeds itself (not the release's saved vectors). */
async function kitConfigs(profile: Profile): Promise<string[]> {
  const released = new Set((await releasedSystemsOf(profile)).map((s) => s.config));
  return (await configsOf(profile)).filter((c) => !released.has(c));
}

/** Every config with an embedding file: the kit's dense configs and the release's systems. */
async function denseConfigs(profile: Profile): Promise<string[]> {
  const dense: string[] = [];
  for (const name of await kitConfigs(profile)) {
    if (!isSparse(await invocationFor(name))) dense.push(name);
  }
  dense.push(...(await releasedSystemsOf(profile)).map((s) => s.config));
  return dense.sort();
}

/**
 * The profile's reranked configs whose bases all run (a config dropped by
 * --skip-unavailable drops the rerankers built on it).
 */
async function rerankersOf(profile: Profile): Promise<string[]> {
  const configs = new Set(await configsOf(profile));
  return (profile.rerankers ?? []).filter((r) =>
    parseRerankConfig(r).bases.every((b) => configs.has(b))
  ).sort();
}

/**
 * Stop at the oracle when it kept no task (every canonical failed its own
 * tests, or no task had one): every later stage would fail on empty tables,
 * far from the cause. Thrown before the stage is stamped, so a rerun after a
 * fix runs it again.
 */
async function refuseEmptyBenchmark(): Promise<void> {
  const queries = await readTableRows(table("queries"), pick(QUERIES, "query_id"));
  if (queries.length > 0) return;
  const rejected = await readTableRows(table("rejects_oracle"), REJECTS);
  throw new UserError(
    `oracle: no task kept (${summarizeRejects(rejected)}${
      rejected[0] ? `; first: ${rejected[0].locator}: ${rejected[0].reason}` : ""
    })`,
  );
}

// Each stage's tables come from the one catalog (src/tables/catalog.ts).
const ORACLE_TABLES = tablesOf("oracle", false);
const RELEASE_ORACLE_TABLES = tablesOf("oracle", true);
const COMPARE_TABLES = tablesOf("compare");

/** The stages in pipeline order. */
export const STAGES: StageDef[] = [
  {
    name: "tasks",
    after: [],
    tables: tablesOf("tasks"),
    inputs: async (p) => ({
      settings: {
        sources: p.sources,
        release: await bundleDigests(p, ["data/queries.jsonl", "data/corpus.jsonl"]),
        // What `jsonl:FILE`, `release:DIR` and the like read, by content.
        inputs: await sourceInputDigests(await sourcesOf(p)),
      },
      files: [
        committed("data/builtin_tasks.jsonl"),
        committed("data/sources.json"),
        ...mirrorFiles(),
      ],
      entry: "src/tasks/tasks_stage.ts",
      assets: [GRAMMAR],
    }),
    outputs() {
      return Promise.resolve(this.tables.map(table));
    },
    run: async (p, quiet) => {
      await runTasksStage({ sources: await sourcesOf(p), quiet });
    },
  },
  {
    name: "mutate",
    after: ["tasks"],
    tables: tablesOf("mutate"),
    inputs: (p) =>
      Promise.resolve({
        settings: { seed: p.mutation_seed, extensions: p.mutation_extensions },
        files: [table("tasks")],
        entry: "src/mutate/mutate_stage.ts",
        assets: ["src/mutate/_mutate_worker.ts", GRAMMAR],
      }),
    outputs() {
      return Promise.resolve(this.tables.map(table));
    },
    run: async (p, quiet) => {
      await runMutateStage({ seed: p.mutation_seed, extensions: p.mutation_extensions, quiet });
    },
  },
  {
    name: "oracle",
    after: ["mutate"],
    tables: tablesOf("oracle"),
    inputs: async (p) => ({
      settings: {
        runtime: p.runtime,
        timeout_ms: p.timeout_ms,
        max: p.max_distractors,
        pool: isReleasePool(p) ? "release" : "mutants",
        // results/: the pairs its top 10s list without outcomes are run too.
        release: await bundleDigests(p, ["data/", "results/"]),
      },
      files: [table("tasks"), table("mutants")],
      // A release profile's pool is the release's own: its oracle re-executes
      // the released snippets instead of choosing among mutants.
      entry: isReleasePool(p) ? "src/oracle/release_oracle.ts" : "src/oracle/oracle_stage.ts",
      assets: [
        ...DRIVER_PATHS,
        "src/oracle/pyodide_worker.ts",
        "src/oracle/pyodide_host.ts",
        "npm:pyodide",
      ],
    }),
    outputs: (p) =>
      Promise.resolve(
        [...ORACLE_TABLES, ...(isReleasePool(p) ? RELEASE_ORACLE_TABLES : [])].map(table),
      ),
    // Queries are known once the tasks are, up to tasks whose canonical fails:
    // offline models embed them in the background while suites run.
    prefetch: async (p) => {
      if (isReleasePool(p)) return [];
      const offline: string[] = [];
      for (const name of await kitConfigs(p)) {
        const inv = await invocationFor(name);
        if (!isSparse(inv) && !providerEntry(inv.provider).hosted) offline.push(name);
      }
      return offline;
    },
    run: async (p, quiet) => {
      if (isReleasePool(p)) {
        await runReleaseOracleStage({
          bundleDir: (await bundleDirOf(p))!,
          runtime: p.runtime,
          timeoutMs: p.timeout_ms,
          quiet,
        });
        await refuseEmptyBenchmark();
        return;
      }
      await runOracleStage({
        runtime: p.runtime,
        timeoutMs: p.timeout_ms,
        maxDistractors: p.max_distractors,
        quiet,
      });
      await refuseEmptyBenchmark();
    },
  },
  {
    name: "embed",
    after: ["oracle"],
    // Embedding files, one per config, are not pipeline tables.
    tables: [],
    inputs: async (p) => ({
      settings: {
        configs: await configsOf(p),
        release: await bundleDigests(p, [
          "data/queries.jsonl",
          "data/corpus.jsonl",
          "embeddings/",
          "results/",
          "tests/embedding_summary.json",
        ]),
      },
      files: [table("queries"), table("corpus"), ...invocationTables()],
      entry: "src/embed/embed_stage.ts",
      // The worker process each offline model runs in is spawned by path, outside the import graph.
      assets: [
        EMBED_WORKER,
        ...((await releasedSystemsOf(p)).length ? ["src/embed/release_embeddings.ts"] : []),
      ],
    }),
    outputs: async (p) => (await denseConfigs(p)).map((c) => join(embeddingsDir(), `${c}.arrow`)),
    run: async (p, quiet) => {
      const kit = await kitConfigs(p);
      if (kit.length) await runEmbedStage({ configs: kit, quiet });
      const released = (await releasedSystemsOf(p)).map((s) => s.config);
      if (released.length) {
        await writeReleasedEmbeddings((await bundleDirOf(p))!, { quiet, only: released });
      }
    },
  },
  {
    name: "score",
    after: ["embed"],
    tables: tablesOf("score"),
    inputs: async (p) => ({
      settings: { configs: await configsOf(p), ks: p.ks },
      files: [
        table("queries"),
        table("corpus"),
        ...invocationTables(),
        ...(await denseConfigs(p)).map((c) => join(embeddingsDir(), `${c}.arrow`)),
      ],
      entry: "src/score/score_stage.ts",
      assets: [DOT_WORKER],
    }),
    outputs() {
      return Promise.resolve(this.tables.map(table));
    },
    run: async (p, quiet) => {
      await runScoreStage({ configs: await configsOf(p), ks: p.ks, quiet });
    },
  },
  {
    // Rerankers turn configs into new configs: rows beside rankings and per_query.
    name: "rerank",
    after: ["score"],
    tables: tablesOf("rerank"),
    inputs: async (p) => ({
      settings: {
        rerankers: await rerankersOf(p),
        seed: p.seed,
        ks: p.ks,
        runtime: p.runtime,
        timeout_ms: p.timeout_ms,
      },
      files: [
        ...["rankings", "queries", "corpus", "tasks"].map(table),
        // Read by import.meta.url through the hosted rerankers' modules.
        ...invocationTables(),
        committed("data/rerankers.json"),
      ],
      entry: "src/rerank/rerank_stage.ts",
      assets: [
        ...DRIVER_PATHS,
        "src/oracle/pyodide_worker.ts",
        "src/oracle/pyodide_host.ts",
        "npm:pyodide",
      ],
    }),
    outputs() {
      return Promise.resolve(this.tables.map(table));
    },
    run: async (p, quiet) => {
      await runRerankStage({
        rerankers: await rerankersOf(p),
        seed: p.seed,
        ks: p.ks,
        runtime: p.runtime,
        timeoutMs: p.timeout_ms,
        quiet,
      });
    },
  },
  {
    // The committed leaderboard entries of this benchmark, scored as configs.
    name: "leaderboard",
    after: ["rerank"],
    tables: tablesOf("leaderboard"),
    inputs: (p) =>
      Promise.resolve({
        settings: {
          benchmark: p.name,
          ks: p.ks,
          entries: listEntries(leaderboardDir(), p.name).map((e) => e.name),
        },
        files: [
          ...["queries", "corpus", "per_query", "rerank_per_query"].map(table),
          ...boardFiles(p.name),
          ...invocationTables(),
        ],
        entry: "src/leaderboard/stage.ts",
        // The spot check scores a dense model's re-run with the score stage's kernel.
        assets: [DOT_WORKER],
      }),
    outputs() {
      return Promise.resolve(this.tables.map(table));
    },
    run: async (p, quiet) => {
      await runBoardStage({ benchmark: p.name, ks: p.ks, quiet });
    },
  },
  {
    name: "stats",
    after: ["leaderboard"],
    // Each stage writes its own rejects_<stage> table; the combined `rejects`
    // is complete once the stages before stats have run, so stats writes it,
    // stamped with those files as inputs like any other output.
    tables: tablesOf("stats"),
    inputs: (p) =>
      Promise.resolve({
        settings: { ks: p.ks, bootstrap: p.bootstrap, seed: p.seed },
        files: [
          ...["per_query", "rerank_per_query", "board_per_query", "board_entries"].map(table),
          ...stageRejectFiles(),
        ],
        entry: "src/stats/stats_stage.ts",
        assets: [DOT_WORKER, "src/tables/rejects.ts"],
      }),
    outputs() {
      return Promise.resolve(this.tables.map(table));
    },
    run: async (p, quiet) => {
      await runStatsStage({ ks: p.ks, bootstrap: p.bootstrap, seed: p.seed, quiet });
      await writeCombinedRejects();
    },
  },
  {
    // The paper's released numbers beside the kit's (release profiles only;
    // elsewhere it has nothing to compare and writes nothing).
    name: "compare",
    after: ["stats"],
    tables: COMPARE_TABLES,
    inputs: async (p) => ({
      settings: {
        configs: await configsOf(p),
        release: await bundleDigests(p, ["data/", "results/", "tests/"]),
      },
      files: (await bundleDirOf(p)) === null
        ? []
        : ["metrics", "pairwise", "rankings", "tasks"].map(table),
      entry: "src/compare/compare_stage.ts",
      // Read by import.meta.url through the sources and embed modules it imports.
      assets: ["data/invocations.json", "data/sources.json"],
    }),
    outputs: async (p) => (await bundleDirOf(p)) === null ? [] : COMPARE_TABLES.map(table),
    run: async (p, quiet) => {
      const dir = await bundleDirOf(p);
      if (dir === null) return;
      await runCompareStage({ bundleDir: dir, configs: await configsOf(p), quiet });
    },
  },
  {
    // One file per config in the release's per-model format (results/README.md).
    name: "results",
    after: ["compare"],
    tables: [],
    inputs: (p) =>
      Promise.resolve({
        settings: { ks: p.ks },
        files: [
          "tasks",
          "queries",
          "corpus",
          "executions",
          "rankings",
          "rerank_rankings",
          "metrics",
        ]
          .map(table),
        entry: "src/results/results_stage.ts",
      }),
    outputs: async (p) =>
      [...await configsOf(p), ...await rerankersOf(p)].sort().map((c) => resultsPath(c)),
    run: async (p) => {
      await writeResultsFiles(p.ks);
    },
  },
];
