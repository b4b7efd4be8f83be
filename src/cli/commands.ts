import type { Command } from "./command.ts";

/**
 * A subcommand as the command list knows it: its name and line, and its
 * module, loaded only when it runs. Loading every command's module graph
 * (Arrow, DuckDB, the stages, the benchmarks) cost each `execret` call
 * ~0.37 CPU-s; one command's costs 0.15-0.23 (`execret --help` against
 * importing one command module, 2026-12-07).
 */
export interface CommandEntry {
  name: string;
  /** One line for the command list. */
  summary: string;
  load(): Promise<Command>;
}

/** Every subcommand, in pipeline order. */
export const commands: readonly CommandEntry[] = [
  {
    name: "tasks",
    summary: "Read task sources into out/tables/tasks.arrow (+ rejects)",
    load: async () => (await import("./commands/tasks.ts")).tasksCommand,
  },
  {
    name: "mutate",
    summary: "Generate single-edit buggy candidates into mutants.arrow",
    load: async () => (await import("./commands/mutate.ts")).mutateCommand,
  },
  {
    name: "oracle",
    summary: "Execute every snippet's tests; build queries, corpus, validation",
    load: async () => (await import("./commands/oracle.ts")).oracleCommand,
  },
  {
    name: "embed",
    summary: "Embed queries and corpus for configs into out/embeddings/",
    load: async () => (await import("./commands/embed.ts")).embedCommand,
  },
  {
    name: "score",
    summary: "Rank the pool for every embedded config into rankings.arrow",
    load: async () => (await import("./commands/score.ts")).scoreCommand,
  },
  {
    name: "stats",
    summary: "Per-query metrics, bootstrap intervals and pairwise tests",
    load: async () => (await import("./commands/stats.ts")).statsCommand,
  },
  {
    name: "leaderboard",
    summary: "Verify contributed leaderboard entries, or add one from a config of this run",
    load: async () => (await import("./commands/leaderboard.ts")).leaderboardCommand,
  },
  {
    name: "export",
    summary: "Write TREC runs/qrels and a BEIR-layout copy of the benchmark",
    load: async () => (await import("./commands/export.ts")).exportCommand,
  },
  {
    name: "sql",
    summary: "Run SQL (DuckDB) over every table of the run",
    load: async () => (await import("./commands/sql.ts")).sqlCommand,
  },
  {
    name: "check",
    summary: "Audit a finished run's integrity",
    load: async () => (await import("./commands/check.ts")).checkCommand,
  },
  {
    name: "bench",
    summary: "Benchmarks of the pipeline's hot stages",
    load: async () => (await import("./commands/bench.ts")).benchCommand,
  },
  {
    name: "reproduce",
    summary: "Run every stage of a profile, then build the site",
    load: async () => (await import("./commands/reproduce.ts")).reproduceCommand,
  },
  {
    name: "fetch-release",
    summary: "Download and verify the paper's release bundle",
    load: async () => (await import("./commands/fetch_release.ts")).fetchReleaseCommand,
  },
  {
    name: "import-release",
    summary:
      "The release run on a bundle on disk (reproduce --profile release --source release:DIR)",
    load: async () => (await import("./commands/import_release.ts")).importReleaseCommand,
  },
  {
    name: "merge-cache",
    summary: "Merge the cache folders of --shard runs into the local cache",
    load: async () => (await import("./commands/merge_cache.ts")).mergeCacheCommand,
  },
];
