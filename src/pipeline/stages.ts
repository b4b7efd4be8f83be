import { join } from "node:path";
import { embeddingsDir, outDir, tablePath } from "../io/paths.ts";
import type { Profile } from "./profile.ts";
import type { StageInputs } from "./stamp.ts";
import { runTasksStage } from "../sources/stage.ts";
import { runMutateStage } from "../mutate/stage.ts";
import { runOracleStage } from "../oracle/stage.ts";
import { runEmbedStage } from "../embed/stage.ts";
import { invocationFor } from "../embed/invocations.ts";
import { isSparse } from "../embed/registry.ts";
import { runScoreStage } from "../score/stage.ts";
import { runStatsStage } from "../stats/stage.ts";

/** One pipeline stage as the orchestrator sees it. */
export interface StageDef {
  name: string;
  /** Stages whose outputs this one reads. */
  after: string[];
  /** What the outputs are a function of (for the stamp). */
  inputs(profile: Profile): Promise<StageInputs>;
  /** Files the stage writes (checked and stamped after it runs). */
  outputs(profile: Profile): Promise<string[]>;
  /** Run the stage (it prints its own progress unless quiet). */
  run(profile: Profile, quiet: boolean): Promise<unknown>;
}

// The tree-sitter grammar is read from its package, not imported.
const GRAMMAR = "npm:tree-sitter-python";
// score's dot kernel runs its rows in workers (stats imports the kernel too).
const DOT_WORKER = "src/score/_dot_worker.ts";
const table = (name: string) => tablePath(name);
const rejects = (stage: string) => join(outDir(), "tables", `rejects_${stage}.arrow`);

function mirrorFiles(): string[] {
  const mirror = Deno.env.get("EXECRET_MIRROR");
  return mirror ? [join(mirror, "mbpp.jsonl"), join(mirror, "HumanEval.jsonl.gz")] : [];
}

async function denseConfigs(profile: Profile): Promise<string[]> {
  const dense: string[] = [];
  for (const name of profile.configs) {
    if (!isSparse(await invocationFor(name))) dense.push(name);
  }
  return dense;
}

/** The stages in pipeline order. */
export const STAGES: StageDef[] = [
  {
    name: "tasks",
    after: [],
    inputs: (p) =>
      Promise.resolve({
        settings: { sources: p.sources },
        files: ["data/builtin_tasks.jsonl", "data/sources.json", ...mirrorFiles()],
        entry: "src/sources/stage.ts",
        assets: [GRAMMAR],
      }),
    outputs: () => Promise.resolve([table("tasks"), rejects("tasks")]),
    run: async (p, quiet) => {
      await runTasksStage({ sources: p.sources, quiet });
    },
  },
  {
    name: "mutate",
    after: ["tasks"],
    inputs: (p) =>
      Promise.resolve({
        settings: { seed: p.mutation_seed, extensions: p.mutation_extensions },
        files: [table("tasks")],
        entry: "src/mutate/stage.ts",
        assets: ["src/mutate/_mutate_worker.ts", GRAMMAR],
      }),
    outputs: () => Promise.resolve([table("mutants"), rejects("mutate")]),
    run: async (p, quiet) => {
      await runMutateStage({ seed: p.mutation_seed, extensions: p.mutation_extensions, quiet });
    },
  },
  {
    name: "oracle",
    after: ["mutate"],
    inputs: (p) =>
      Promise.resolve({
        settings: { runtime: p.runtime, timeout_ms: p.timeout_ms, max: p.max_distractors },
        files: [table("tasks"), table("mutants")],
        entry: "src/oracle/stage.ts",
        assets: [
          "src/oracle/driver.py",
          "src/oracle/pyodide_worker.ts",
          "src/oracle/pyodide_host.ts",
          "npm:pyodide",
        ],
      }),
    outputs: () =>
      Promise.resolve(
        ["executions", "execution_times", "queries", "corpus", "validation"].map(table).concat(
          rejects("oracle"),
        ),
      ),
    run: async (p, quiet) => {
      await runOracleStage({
        runtime: p.runtime,
        timeoutMs: p.timeout_ms,
        maxDistractors: p.max_distractors,
        quiet,
      });
    },
  },
  {
    name: "embed",
    after: ["oracle"],
    inputs: (p) =>
      Promise.resolve({
        settings: { configs: p.configs },
        files: [table("queries"), table("corpus"), "data/invocations.json"],
        entry: "src/embed/stage.ts",
      }),
    outputs: async (p) => (await denseConfigs(p)).map((c) => join(embeddingsDir(), `${c}.arrow`)),
    run: async (p, quiet) => {
      await runEmbedStage({ configs: p.configs, quiet });
    },
  },
  {
    name: "score",
    after: ["embed"],
    inputs: async (p) => ({
      settings: { configs: p.configs, ks: p.ks },
      files: [
        table("queries"),
        table("corpus"),
        "data/invocations.json",
        ...(await denseConfigs(p)).map((c) => join(embeddingsDir(), `${c}.arrow`)),
      ],
      entry: "src/score/stage.ts",
      assets: [DOT_WORKER],
    }),
    outputs: () => Promise.resolve([table("rankings"), table("per_query")]),
    run: async (p, quiet) => {
      await runScoreStage({ configs: p.configs, ks: p.ks, quiet });
    },
  },
  {
    name: "stats",
    after: ["score"],
    inputs: (p) =>
      Promise.resolve({
        settings: { ks: p.ks, bootstrap: p.bootstrap, seed: p.seed },
        files: [table("per_query")],
        entry: "src/stats/stage.ts",
        assets: [DOT_WORKER],
      }),
    outputs: () => Promise.resolve(["metrics", "pairwise", "breakdowns"].map(table)),
    run: async (p, quiet) => {
      await runStatsStage({ ks: p.ks, bootstrap: p.bootstrap, seed: p.seed, quiet });
    },
  },
];
