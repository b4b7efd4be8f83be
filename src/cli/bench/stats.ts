import process from "node:process";
import { parseFlags, positiveInt, printJson } from "../command.ts";
import { BOOTSTRAP_SEED } from "../../stats/bootstrap.ts";
import type { PerQueryMatrix } from "../../stats/per_query_matrix.ts";
import { computeStats } from "../../stats/stats_stage.ts";
import { xoshiro128ss } from "../../common/rng.ts";
import { BUG_TYPES, DOMAINS } from "../../tables/schema.ts";

/**
 * Synthetic per-query data shaped like the paper's: every series the score
 * stage writes (binary exec, fractional precision/nDCG, ranks, margins, a
 * partial miss-attribution series, six per-bug-type series), random but seeded.
 */
export function syntheticPerQuery(queries: number, configs: number, seed = 1): PerQueryMatrix {
  const next = xoshiro128ss(seed);
  const u = () => next() / 4294967296;
  const ks = [1, 3, 5, 10];
  const series: { metric: string; k: number }[] = [];
  for (const metric of ["exec", "precision", "ndcg", "gap"]) {
    for (const k of ks) series.push({ metric, k });
  }
  series.push(
    { metric: "expected_exec", k: 1 },
    { metric: "top_tie", k: 1 },
    { metric: "mrr", k: 0 },
    { metric: "canonical_rank", k: 0 },
    { metric: "miss_own_distractor", k: 1 },
    { metric: "below_distractor", k: 0 },
    { metric: "margin", k: 0 },
    ...BUG_TYPES.map((b) => ({ metric: `outrank:${b}`, k: 0 })),
  );
  const n = queries, S = series.length;
  const names = Array.from({ length: configs }, (_, c) => `config-${String(c).padStart(2, "0")}`);
  const values = new Map<string, Float64Array>();
  for (const [c, name] of names.entries()) {
    const skill = 0.05 + (0.3 * c) / configs;
    const v = new Float64Array(S * n).fill(NaN);
    for (let i = 0; i < n; i++) {
      const rank = u() < skill ? 1 : 2 + Math.floor(u() * 20);
      series.forEach(({ metric, k }, s) => {
        let x: number;
        if (metric === "exec") x = rank <= k ? 1 : 0;
        else if (metric === "precision") x = rank <= k ? 1 / k : 0;
        else if (metric === "ndcg") x = rank <= k ? 1 / Math.log2(rank + 1) : 0;
        else if (metric === "gap") x = rank <= k ? 1 - 1 / Math.log2(rank + 1) : 0;
        else if (metric === "canonical_rank") x = rank;
        else if (metric === "mrr") x = 1 / rank;
        else if (metric === "miss_own_distractor") x = rank === 1 ? NaN : u() < 0.95 ? 1 : 0;
        else if (metric === "margin") x = u() - 0.6;
        else if (metric.startsWith("outrank:")) x = u() < 0.3 ? NaN : u() < 0.5 ? 1 : 0;
        else x = u() < 0.3 ? 1 : 0;
        v[s * n + i] = x;
      });
    }
    values.set(name, v);
  }
  return {
    configs: names,
    queryIds: Array.from({ length: n }, (_, i) => `q${i}`),
    source: Array.from({ length: n }, (_, i) => ["builtin", "humaneval", "mbpp"][i % 3]),
    domain: Array.from({ length: n }, (_, i) => DOMAINS[i % DOMAINS.length]),
    series,
    values,
  };
}

/**
 * `execret bench stats [--queries N] [--configs N] [--bootstrap N]`: time the
 * whole statistics computation (per-config and breakdown intervals, every
 * pair's paired interval, McNemar and Holm) on synthetic data of the paper's
 * size (939 queries, 24 configs, 5,000 resamples).
 */
export function benchStats(args: string[]): Promise<number> {
  const { values: f } = parseFlags(args, {
    queries: { type: "string" },
    configs: { type: "string" },
    bootstrap: { type: "string" },
  });
  if (f.help) {
    console.log(
      "usage: execret bench stats [--queries 939] [--configs 24] [--bootstrap 5000] [--json]",
    );
    return Promise.resolve(0);
  }
  const n = positiveInt("queries", f.queries, 939);
  const c = positiveInt("configs", f.configs, 24);
  const B = positiveInt("bootstrap", f.bootstrap, 5000);
  const pq = syntheticPerQuery(n, c);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const t = computeStats(pq, { bootstrap: B, seed: BOOTSTRAP_SEED, quiet: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const result = {
    queries: n,
    configs: c,
    pairs: (c * (c - 1)) / 2,
    series: pq.series.length,
    bootstrap: B,
    seconds: Number(seconds.toFixed(2)),
    cpu_seconds: Number(cpuSeconds.toFixed(2)),
    load_average: Deno.loadavg(),
    metrics_rows: t.metrics.length,
    breakdown_rows: t.breakdowns.length,
    pairwise_rows: t.pairwise.length,
  };
  if (f.json) printJson(result);
  else {
    console.log(
      `bench stats: ${n} queries × ${c} configs (${result.pairs} pairs) × ${result.series} series` +
        ` × ${B} resamples: ${result.seconds} s wall, ${result.cpu_seconds} s CPU` +
        ` (${result.metrics_rows} metrics, ${result.breakdown_rows} breakdown, ${result.pairwise_rows} pairwise rows)`,
    );
    console.log(
      `  load average ${
        result.load_average.map((x) => x.toFixed(2)).join(" ")
      } (shared machine: wall time is noisy)`,
    );
  }
  return Promise.resolve(0);
}
