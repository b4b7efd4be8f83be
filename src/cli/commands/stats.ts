import { type Command, parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { runStatsStage } from "../../stats/stats_stage.ts";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from "../../stats/bootstrap.ts";
import { readTableRows } from "../../io/arrow_table.ts";
import { tablePath } from "../../io/paths.ts";
import { type MetricRow, METRICS } from "../../tables/schema.ts";

/** The headline numbers per config, as a plain-text table. */
async function headline(): Promise<string> {
  const rows = await readTableRows(tablePath("metrics"), METRICS);
  const get = (c: string, metric: string, k: number) =>
    rows.find((r) => r.config === c && r.metric === metric && r.k === k);
  const fmt = (r: MetricRow | undefined, ci = false) =>
    r === undefined
      ? "-"
      : ci
      ? `${r.value.toFixed(3)} [${r.ci_low.toFixed(3)}, ${r.ci_high.toFixed(3)}]`
      : r.value.toFixed(3);
  const cols = [
    "config",
    "exec@1 [95% CI]",
    "E[exec@1]",
    "exec@10",
    "miss→own",
    "canon<distr",
    "MRR",
  ];
  const lines = [...new Set(rows.map((r) => r.config))].map((c) => [
    c,
    fmt(get(c, "exec", 1), true),
    fmt(get(c, "expected_exec", 1)),
    fmt(get(c, "exec", 10)),
    fmt(get(c, "miss_own_distractor", 1)),
    fmt(get(c, "below_distractor", 0)),
    fmt(get(c, "mrr", 0)),
  ]);
  const widths = cols.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  return [cols, ...lines].map((l) => l.map((x, i) => x.padEnd(widths[i])).join("  ")).join("\n");
}

/** `execret stats`: per-query metrics, bootstrap intervals and pairwise tests. */
export const statsCommand: Command = {
  name: "stats",
  help: `usage: execret stats [--bootstrap N] [--seed N] [--k K]... [--quiet] [--json]

From out/tables/per_query.arrow (written by \`execret score\`), write:

  out/tables/metrics.arrow     per config, metric and k: mean over queries with a
                               95% percentile bootstrap interval
  out/tables/breakdowns.arrow  the same per source and per domain
  out/tables/pairwise.arrow    every pair of configs, metric and k: paired
                               bootstrap interval of the difference; for exec@k the
                               McNemar table, exact two-sided p, Holm-adjusted p

Resamples: xoshiro128** seeded by SplitMix64(seed), drawn once and shared by
every config, metric and pair. Same per_query + seed → byte-identical tables.

options:
  --bootstrap N   resamples (default ${BOOTSTRAP_RESAMPLES})
  --seed N        seed (default ${BOOTSTRAP_SEED})
  --k K           keep only these cutoffs (repeatable; default all in per_query)
  --quiet         no progress lines
  --json          machine-readable summary`,
  async run(args) {
    const { values } = parseFlags(args, {
      bootstrap: { type: "string" },
      seed: { type: "string" },
      k: { type: "string", multiple: true },
      quiet: { type: "boolean" },
    });
    if (values.help) {
      console.log(this.help);
      return 0;
    }
    const ks = values.k?.flatMap((k) => k.split(",")).map((k) => positiveInt("k", k, 1));
    let result;
    try {
      result = await runStatsStage({
        bootstrap: positiveInt("bootstrap", values.bootstrap, BOOTSTRAP_RESAMPLES),
        seed: positiveInt("seed", values.seed, BOOTSTRAP_SEED),
        ks,
        quiet: values.quiet,
      });
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError((e as Error).message.split("\n")[0]);
    }
    if (values.json) printJson(result);
    else {
      console.log(
        `${result.configs.length} configs × ${result.queries} queries × ${result.series} series, ` +
          `${result.pairs} pairs, in ${result.seconds.toFixed(1)} s`,
      );
      console.log(`wrote ${result.metrics}, ${result.breakdowns} and ${result.pairwise}`);
      if (!values.quiet) console.log(await headline());
    }
    return 0;
  },
};
