import type { Command } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { benchMutate } from "../bench/mutate.ts";
import { benchOracle } from "../bench/oracle.ts";
import { benchEmbed } from "../bench/embed.ts";
import { benchScore } from "../bench/score.ts";
import { benchStats } from "../bench/stats.ts";
import { benchGrowth } from "../bench/growth.ts";
import { benchLeaderboard } from "../bench/leaderboard.ts";

const benches: Record<string, (args: string[]) => Promise<number>> = {
  mutate: benchMutate,
  oracle: benchOracle,
  embed: benchEmbed,
  score: benchScore,
  stats: benchStats,
  leaderboard: benchLeaderboard,
  growth: benchGrowth,
};

/** `execret bench <stage>|all`: benchmarks of the pipeline's hot stages. */
export const benchCommand: Command = {
  name: "bench",
  help: `usage: execret bench <${Object.keys(benches).join("|")}|all> [options]

Run a stage's benchmark and print its figures (rates, timings, ratios).
"all" runs every benchmark in pipeline order. Every benchmark takes --json.

bench mutate options:
  --runs N         timed runs; best and median reported (default 3)
  --workers N      threads (default: cores, at most 4)
  --extensions     also run the extension operators

bench oracle options:
  --size N         suites in the corpus (default 5000), from out/tables tasks
                   and mutants when present, else MBPP (as the tasks
                   stage gets it: mirror, cache or download);
                   suites that time out are left out
  --workers N      workers per runtime (default: the machine's cores)
  --timeout-ms N   per-test timeout (default 250)
  --passes N       measured passes per runtime after one warm-up pass,
                   taken in turns; the figure is the median (default 7:
                   a pass takes seconds, and 3 of them swung 1.6-2.3x here)
  --copies N       copies of the corpus in each measured pass, each with
                   its own text (default 4: a pass of one copy took ~0.5 s
                   and its ratio swung 0.45-0.98x here)
  --batch N        suites per message to a worker (default: the oracle's 128)
  --no-floor       skip the interpreters-alone passes: both interpreters
                   run the driver over the same suites in one thread each,
                   with no pool, giving the ratio the pools could reach
                   with no overhead at all
  The native runtime is the python3 on PATH; put another CPython first
  on PATH to compare with it.

bench leaderboard options (on the run in EXECRET_OUT, default out/):
  --entries N      generated entries to verify (default 100), written to a
                   temporary leaderboard folder
  --stats          also time the stats stage over the run's configs and the
                   entries (in a copy of the run's tables)

bench growth options ("all" runs it at --scales 1):
  --scales LIST    multiples of the default profile's tasks (default 1,3,10);
                   each scale runs the pipeline on generated tasks, every
                   stage in its own process: time and peak memory per stage
  --out DIR        task files, each scale's tables and growth.md/growth.json
                   (default out/growth)
  --source SOURCE  base task sources (repeatable; default the default profile's)
  --base N         keep only the first N base tasks (quick runs)
  --from FILE      print the table of earlier runs' growth.json instead of
                   running (repeatable: a 1,3 run and a 10 run merge)`,
  async run(args) {
    const [which, ...rest] = args;
    if (which === "all") {
      for (const [name, run] of Object.entries(benches)) {
        // Growth at 1× only: 3× and 10× take most of an hour (make bench-growth).
        const code = await run(name === "growth" ? ["--scales", "1", ...rest] : rest);
        if (code !== 0) return code;
      }
      return 0;
    }
    const run = which === undefined ? undefined : benches[which];
    if (!run) {
      throw new UserError(
        `expected one of ${Object.keys(benches).join(", ")}, all; got "${which ?? ""}"`,
        2,
      );
    }
    return await run(rest);
  },
};
