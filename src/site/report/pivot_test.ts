import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { pairMatrix, pivotLeaderboard, pivotLong, snippetScoreGrid } from "./pivot.ts";

Deno.test("pivotLeaderboard makes one line per config, best exec first", () => {
  const row = (config: string, metric: string, value: number) => ({
    config,
    metric,
    k: 1,
    value,
    ci_low: value - 0.1,
    ci_high: value + 0.1,
  });
  const lines = pivotLeaderboard([
    row("bm25", "exec", 0.1),
    row("use", "exec", 0.3),
    row("bm25", "ndcg", 0.5),
    row("use", "ndcg", 0.6),
  ]);
  assertEquals(lines.map((l) => l.config), ["use", "bm25"]);
  assertEquals(lines[1], {
    config: "bm25",
    exec: 0.1,
    exec_low: 0.1 - 0.1,
    exec_high: 0.1 + 0.1,
    ndcg: 0.5,
    ndcg_low: 0.4,
    ndcg_high: 0.6,
  });
});

Deno.test("pairMatrix fills both orientations and flips the interval", () => {
  const cells = pairMatrix([{
    config_a: "use",
    config_b: "bm25",
    delta: 0.4,
    ci_low: 0.1,
    ci_high: 0.7,
    p_holm: 0.01,
    p_mcnemar: 0.005,
  }]);
  assertEquals(cells.length, 2);
  assertEquals(cells[1], {
    row: "bm25",
    col: "use",
    delta: -0.4,
    ci_low: -0.7,
    ci_high: -0.1,
    p_holm: 0.01,
    significant: true,
  });
});

Deno.test("pairMatrix without a test uses the interval", () => {
  const base = { config_a: "a", config_b: "b", delta: 0.1, p_holm: null, p_mcnemar: null };
  assertEquals(pairMatrix([{ ...base, ci_low: -0.1, ci_high: 0.3 }])[0].significant, false);
  assertEquals(pairMatrix([{ ...base, ci_low: 0.05, ci_high: 0.3 }])[0].significant, true);
});

Deno.test("snippetScoreGrid shows rank and score per config, '> 10' when unranked", () => {
  const grid = snippetScoreGrid(
    [
      { corpus_id: "t#c", label: "correct", bug_type: null },
      { corpus_id: "t#m0", label: "incorrect", bug_type: "off_by_one" },
    ],
    [
      { config: "bm25", corpus_id: "t#m0", rank: 1, score: 0.9 },
      { config: "bm25", corpus_id: "t#c", rank: 2, score: 0.8 },
      { config: "use", corpus_id: "t#c", rank: 1, score: 0.75 },
    ],
  );
  assertEquals(grid, [
    { snippet: "t#c", kind: "canonical", bm25: "#2 (0.800)", use: "#1 (0.750)" },
    { snippet: "t#m0", kind: "off_by_one", bm25: "#1 (0.900)", use: "> 10" },
  ]);
});

Deno.test("pivotLong spreads a long table into columns, null where missing", () => {
  const { columns, rows } = pivotLong(
    [
      { gate: "canonical_pass", source: "mbpp", count: 3 },
      { gate: "canonical_pass", source: "builtin", count: 5 },
      { gate: "equivalent", source: "mbpp", count: 1 },
    ],
    "gate",
    "source",
    "count",
  );
  assertEquals(columns, ["mbpp", "builtin"]);
  assertEquals(rows, [
    { gate: "canonical_pass", mbpp: 3, builtin: 5 },
    { gate: "equivalent", mbpp: 1, builtin: null },
  ]);
});
