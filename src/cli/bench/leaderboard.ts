/**
 * `execret bench leaderboard`: how long verifying contributed entries takes
 * on the current run's benchmark. It writes `--entries` generated entries
 * (board_entries.ts: seeded runs of made-up models, a quarter with ties,
 * half with their own snippets) into a temporary leaderboard folder, then
 * times what `execret leaderboard verify` does for them all: read, check
 * and score every run file against the pool and its verdicts (the models
 * are not reachable, so no spot check). Optionally (`--stats`) it also
 * times the stats stage over the run's configs and the entries together:
 * intervals, ranks and exact McNemar for every pair on the board.
 *
 * @module
 */
import { join } from "node:path";
import { parseFlags, positiveInt, printJson } from "../command.ts";
import { tablePath } from "../../io/paths.ts";
import { currentProfile, ensureStage } from "../../pipeline/run_pipeline.ts";
import { readBenchmark } from "../../score/benchmark.ts";
import { runBoardStage, verifyBoard } from "../../leaderboard/stage.ts";
import { runStatsStage } from "../../stats/stats_stage.ts";
import { writeGeneratedEntries } from "./board_entries.ts";

/** Run the bench (see the module comment); its exit code. */
export async function benchLeaderboard(args: string[]): Promise<number> {
  const { values } = parseFlags(args, { entries: { type: "string" }, stats: { type: "boolean" } });
  const count = positiveInt("entries", values.entries, 100);
  const profile = currentProfile();
  await ensureStage("rerank", profile, { quiet: true });
  const bench = await readBenchmark();
  const root = await Deno.makeTempDir({ prefix: "execret_bench_lb_" });
  try {
    const t0 = performance.now();
    await writeGeneratedEntries(root, profile.name, bench, count);
    const written = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const { outcomes } = await verifyBoard({
      benchmark: profile.name,
      ks: profile.ks,
      root,
      quiet: true,
      reachable: () => false,
    });
    const verify = (performance.now() - t1) / 1000;
    const refused = outcomes.filter((o) => !o.ok).map((o) => (o.ok ? "" : o.reason));
    let stats: { seconds: number; configs: number; pairs: number } | null = null;
    if (values.stats) {
      // In a copy of the run's tables: the run itself keeps its own board.
      const scratch = await Deno.makeTempDir({ prefix: "execret_bench_lb_out_" });
      const previous = Deno.env.get("EXECRET_OUT");
      await Deno.mkdir(join(scratch, "tables"));
      for (const t of ["queries", "corpus", "per_query", "rerank_per_query"]) {
        try {
          await Deno.copyFile(tablePath(t), join(scratch, "tables", `${t}.arrow`));
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) throw e;
        }
      }
      Deno.env.set("EXECRET_OUT", scratch);
      try {
        await runBoardStage({ benchmark: profile.name, ks: profile.ks, root, quiet: true });
        const t2 = performance.now();
        const r = await runStatsStage({
          bootstrap: profile.bootstrap,
          seed: profile.seed,
          quiet: true,
        });
        stats = {
          seconds: (performance.now() - t2) / 1000,
          configs: r.configs.length,
          pairs: r.pairs,
        };
      } finally {
        if (previous === undefined) Deno.env.delete("EXECRET_OUT");
        else Deno.env.set("EXECRET_OUT", previous);
        await Deno.remove(scratch, { recursive: true });
      }
    }
    const figures = {
      benchmark: profile.name,
      queries: bench.queries.length,
      pool: bench.corpus.length,
      entries: count,
      refused,
      writeSeconds: written,
      verifySeconds: verify,
      entriesPerSecond: count / verify,
      stats,
    };
    if (values.json) printJson(figures);
    else {
      console.log(
        `bench leaderboard: ${count} entries on ${profile.name} (${bench.queries.length} queries, ${bench.corpus.length} snippets): verified in ${
          verify.toFixed(1)
        } s (${(count / verify).toFixed(1)} entries/s; writing them took ${
          written.toFixed(1)
        } s), ${refused.length} refused`,
      );
      if (stats) {
        console.log(
          `bench leaderboard: stats over ${stats.configs} models (${stats.pairs} pairs, exact McNemar each) in ${
            stats.seconds.toFixed(1)
          } s`,
        );
      }
    }
    return refused.length === 0 ? 0 : 1;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
