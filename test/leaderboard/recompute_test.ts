/**
 * Every number on the board against a second implementation: the
 * leaderboard stage and the stats stage over the fixture run with generated
 * entries (ties, with and without their own snippets), then
 * test/leaderboard/recompute.py, written apart in Python from the metrics'
 * and statistics' definitions, computes the same numbers from the run files,
 * the qrels and the kit configs' per-query outcomes.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { readTableRows } from "../../src/io/arrow_table.ts";
import { tablePath } from "../../src/io/paths.ts";
import { readBenchmark } from "../../src/score/benchmark.ts";
import { runBoardStage } from "../../src/leaderboard/stage.ts";
import { runStatsStage } from "../../src/stats/stats_stage.ts";
import { BOARD_ENTRIES, LEADERBOARD } from "../../src/tables/board.ts";
import { METRICS, PAIRWISE, PER_QUERY } from "../../src/tables/schema.ts";
import { trecQrels } from "../../src/results/trec.ts";
import { makeFixtureRun } from "../fixtures/run/make_fixture_run.ts";
import { writeGeneratedEntries } from "../../src/cli/bench/board_entries.ts";

const BENCHMARK = "fixture";
const B = 400;
const SEED = 20260510;
const KS = [1, 3, 5, 10];

function close(a: number, b: number, what: string, tol = 1e-9): void {
  ok(
    Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)),
    `${what}: kit ${a}, second implementation ${b}`,
  );
}

Deno.test("leaderboard: every number on the board equals a second implementation's, from the run files", async () => {
  const out = await Deno.makeTempDir({ prefix: "execret_board_re_" });
  const root = await Deno.makeTempDir({ prefix: "execret_lb_re_" });
  const previous = Deno.env.get("EXECRET_OUT");
  await makeFixtureRun(out);
  Deno.env.set("EXECRET_OUT", out);
  try {
    const bench = await readBenchmark();
    const specs = await writeGeneratedEntries(root, BENCHMARK, bench, 6);
    deepStrictEqual(await runBoardStage({ benchmark: BENCHMARK, ks: KS, root, quiet: true }), {
      verified: 6,
      refused: 0,
    });
    await runStatsStage({ bootstrap: B, seed: SEED, quiet: true });
    const entries = await readTableRows(tablePath("board_entries"), BOARD_ENTRIES);
    const board = await readTableRows(tablePath("leaderboard"), LEADERBOARD);
    const metrics = await readTableRows(tablePath("metrics"), METRICS);
    const pairwise = await readTableRows(tablePath("pairwise"), PAIRWISE);
    const perQuery = await readTableRows(tablePath("per_query"), PER_QUERY);

    const qrels = join(root, "qrels.txt");
    await Deno.writeTextFile(qrels, trecQrels(bench.queries));
    const kit: Record<string, Record<string, [number, number]>> = {};
    for (const r of perQuery) {
      if (r.metric !== "exec" || (r.k !== 1 && r.k !== 10)) continue;
      const q = (kit[r.config] ??= {})[r.query_id] ??= [0, 0];
      q[r.k === 1 ? 0 : 1] = r.value;
    }
    const kitPath = join(root, "kit.json");
    await Deno.writeTextFile(kitPath, JSON.stringify(kit));
    const runs = Object.fromEntries(
      specs.map((s) => [s.name, join(root, BENCHMARK, s.name, "run.trec.gz")]),
    );
    const script = new URL("./recompute.py", import.meta.url).pathname;
    const spec = JSON.stringify({ qrels, runs, kit: kitPath, ks: KS, B, seed: SEED });
    const py = await new Deno.Command("python3", {
      args: [script, spec],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    strictEqual(py.code, 0, new TextDecoder().decode(py.stderr));
    const second = JSON.parse(new TextDecoder().decode(py.stdout)) as {
      configs: Record<string, {
        means?: Record<string, number>;
        exec1: number;
        exec10: number;
        exec1_ci: [number, number];
        exec10_ci: [number, number];
        rank: number;
        rank_ci: [number, number];
        conservative_rank: number;
      }>;
      pairs: { a: string; b: string; p: number; p_holm: number }[];
    };

    // The entries' metrics, every one the Python side defines.
    strictEqual(entries.length, specs.length);
    let compared = 0;
    for (const s of specs) {
      for (const [key, value] of Object.entries(second.configs[s.name].means!)) {
        const [metric, k] = key.split("@");
        const m = metrics.find((r) =>
          r.config === s.name && r.metric === metric && r.k === Number(k)
        );
        ok(m, `metrics has ${s.name} ${key}`);
        close(m.value, value, `${s.name} ${key}`, 1e-12);
        compared++;
      }
    }
    strictEqual(compared, specs.length * (KS.length * 3 + 1));

    // The board: one row per config, every figure.
    deepStrictEqual(board.map((r) => r.config).sort(), Object.keys(second.configs).sort());
    for (const row of board) {
      const p = second.configs[row.config];
      close(row.exec1, p.exec1, `${row.config} exec@1`, 1e-12);
      close(row.exec10!, p.exec10, `${row.config} exec@10`, 1e-12);
      close(row.exec1_ci_low, p.exec1_ci[0], `${row.config} exec@1 low`);
      close(row.exec1_ci_high, p.exec1_ci[1], `${row.config} exec@1 high`);
      close(row.exec10_ci_low!, p.exec10_ci[0], `${row.config} exec@10 low`);
      close(row.exec10_ci_high!, p.exec10_ci[1], `${row.config} exec@10 high`);
      deepStrictEqual(
        [row.rank, row.rank_ci_low, row.rank_ci_high, row.conservative_rank],
        [p.rank, p.rank_ci[0], p.rank_ci[1], p.conservative_rank],
        row.config,
      );
      const separable = second.pairs.filter((x) =>
        x.p_holm < 0.05 && (x.a === row.config || x.b === row.config)
      )
        .map((x) => (x.a === row.config ? x.b : x.a)).sort();
      deepStrictEqual(row.separable_from, separable, `${row.config} separable from`);
      strictEqual(row.kind, specs.some((s) => s.name === row.config) ? "entry" : "kit");
    }
    // Exact McNemar and Holm for every pair at exec@1.
    const kitPairs = pairwise.filter((r) => r.metric === "exec" && r.k === 1);
    strictEqual(kitPairs.length, second.pairs.length);
    for (const x of second.pairs) {
      const r = kitPairs.find((r) =>
        (r.config_a === x.a && r.config_b === x.b) || (r.config_a === x.b && r.config_b === x.a)
      );
      ok(r, `pair ${x.a} ${x.b}`);
      close(r.p_mcnemar!, x.p, `McNemar p ${x.a} ${x.b}`);
      close(r.p_holm!, x.p_holm, `Holm p ${x.a} ${x.b}`);
    }
  } finally {
    if (previous === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", previous);
  }
});
