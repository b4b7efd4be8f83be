import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  cellView,
  type ComparisonRow,
  differCountText,
  flaggedCellCount,
  gapLines,
  leaderboardCells,
  pairKey,
  pairwiseCells,
  scalarKey,
} from "./paper_comparison_view.ts";

const row = (over: Partial<ComparisonRow>): ComparisonRow => ({
  section: "metric",
  config: "paper-a",
  config_b: null,
  metric: "exec",
  k: 1,
  quantity: "value",
  released: 0.3333,
  kit: 1 / 3,
  status: "equal",
  flagged: false,
  locator: 'results/a.json: metrics["exec@1"]',
  ...over,
});

Deno.test("leaderboardCells joins a metric's value and interval, the results file's value first", () => {
  const cells = leaderboardCells([
    row({}),
    row({ section: "interval", quantity: "value", released: 0.33 }),
    row({ section: "interval", quantity: "ci_low", released: 0.1667 }),
    row({ section: "interval", quantity: "ci_high", released: 0.5 }),
    row({ section: "pairwise", config_b: "paper-b", quantity: "delta" }),
  ]);
  assertEquals([...cells.keys()], [scalarKey("paper-a", "exec", 1)]);
  const cell = cells.get(scalarKey("paper-a", "exec", 1))!;
  assertEquals(cell, {
    released: { value: 0.3333, ci_low: 0.1667, ci_high: 0.5 },
    status: "equal",
    flagged: false,
    notes: [],
  });
  assertEquals(cellView(cell), {
    className: "release-equal",
    released: "paper 0.3333 [0.1667, 0.5]",
    marker: "",
    title: "Equal to the release at its precision",
  });
});

Deno.test("a cell with one differing number is flagged and says which", () => {
  const cells = leaderboardCells([
    row({}),
    row({
      section: "interval",
      quantity: "ci_low",
      released: 0.2,
      kit: 0.1667,
      status: "differs",
      flagged: true,
    }),
    row({ metric: "ndcg", status: "missing", kit: null, flagged: true }),
  ]);
  const exec = cells.get(scalarKey("paper-a", "exec", 1))!;
  assertEquals(exec.status, "differs");
  assertEquals(exec.flagged, true);
  assertEquals(exec.notes, [
    'ci_low: released 0.2, kit 0.1667 (results/a.json: metrics["exec@1"])',
  ]);
  const view = cellView(exec);
  assertEquals([view.className, view.marker], ["flagged", "⚑ differs"]);
  const ndcg = cellView(cells.get(scalarKey("paper-a", "ndcg", 1))!);
  assertEquals([ndcg.className, ndcg.marker], ["flagged", "⚑ not in the kit's run"]);
});

Deno.test("the kit's own BM25 is shown beside the released one and never flagged", () => {
  const cells = leaderboardCells([
    row({ config: "bm25", released: 0.5833, kit: 0.4167, status: "kit_own", flagged: false }),
  ]);
  const cell = cells.get(scalarKey("bm25", "exec", 1))!;
  assertEquals([cell.status, cell.flagged], ["kit_own", false]);
  assertEquals(cellView(cell), {
    className: "kit-own",
    released: "paper 0.5833",
    marker: "kit's own BM25",
    title: "The kit's own implementation beside the released one: shown, not checked",
  });
});

Deno.test("pairwiseCells turns a pair released the other way round to the kit's order", () => {
  const p = (quantity: string, released: number, over: Partial<ComparisonRow> = {}) =>
    row({
      section: "pairwise",
      config: "paper-b",
      config_b: "paper-a",
      quantity,
      released,
      ...over,
    });
  const cells = pairwiseCells(
    [
      p("delta", 0.125),
      p("ci_low", -0.125),
      p("ci_high", 0.375),
      p("a_only", 6),
      p("b_only", 3),
      p("a_rate", 0.5),
      p("b_rate", 0.375, { status: "differs", flagged: true }),
      p("p_mcnemar", 0.50781),
    ],
    [{ config_a: "paper-a", config_b: "paper-b" }],
  );
  const at = (column: string) => cells.get(pairKey("paper-a", "paper-b", "exec", 1, column))!;
  assertEquals(at("delta").released, { delta: -0.125, b_rate: 0.5, a_rate: 0.375 });
  // The released b_rate is the kit row's a_rate, counted toward the difference's cell.
  assertEquals(at("delta").flagged, true);
  assertEquals(at("ci_low").released, { ci_low: -0.375 });
  assertEquals(at("ci_high").released, { ci_high: 0.125 });
  assertEquals(at("a_only").released, { a_only: 3 });
  assertEquals(at("b_only").released, { b_only: 6 });
  assertEquals(cellView(at("p_mcnemar"), "p_mcnemar").released, "paper 0.50781");
  assertEquals(cellView(at("delta"), "delta").released, "paper -0.125");
});

Deno.test("pairwiseCells keeps a pair released in the kit's order as it is", () => {
  const cells = pairwiseCells(
    [row({
      section: "pairwise",
      config: "paper-a",
      config_b: "paper-b",
      quantity: "ci_low",
      released: -0.1,
    })],
    [{ config_a: "paper-a", config_b: "paper-b" }],
  );
  assertEquals(cells.get(pairKey("paper-a", "paper-b", "exec", 1, "ci_low"))!.released, {
    ci_low: -0.1,
  });
});

Deno.test("flaggedCellCount counts cells, not numbers, whichever way a pair is written", () => {
  const rows = [
    row({ flagged: true, status: "differs" }),
    row({ section: "interval", quantity: "ci_low", flagged: true, status: "differs" }),
    row({ k: 3, flagged: true, status: "differs" }),
    row({ k: 5 }),
    row({
      section: "pairwise",
      config: "paper-b",
      config_b: "paper-a",
      quantity: "a_rate",
      flagged: true,
    }),
    row({
      section: "pairwise",
      config: "paper-b",
      config_b: "paper-a",
      quantity: "delta",
      flagged: true,
    }),
    row({
      section: "pairwise",
      config: "paper-b",
      config_b: "paper-a",
      quantity: "a_only",
      flagged: true,
    }),
    row({
      section: "pairwise",
      config: "paper-b",
      config_b: "paper-a",
      quantity: "b_only",
      flagged: true,
    }),
  ];
  assertEquals(flaggedCellCount(rows, ["metric", "interval"]), 2);
  assertEquals(flaggedCellCount(rows, ["pairwise"]), 3);
  assertEquals(flaggedCellCount(rows.slice(3, 4), ["metric", "interval"]), 0);
});

Deno.test("differCountText agrees in number", () => {
  assertEquals(differCountText(0), "0 cells differ from the release");
  assertEquals(differCountText(1), "1 cell differs from the release");
  assertEquals(differCountText(2), "2 cells differ from the release");
});

Deno.test("gapLines keeps the configs and cutoffs the release reports a gap for", () => {
  const cells = leaderboardCells([
    row({ metric: "gap", k: 1, released: 0 }),
    row({ metric: "gap", k: 10, released: 0.2 }),
    row({ config: "bm25", metric: "gap", k: 10, released: 0.1, status: "kit_own" }),
  ]);
  const kit = [
    { config: "paper-a", k: 1, value: 0 },
    { config: "paper-a", k: 10, value: 0.21 },
    { config: "paper-a", k: 5, value: 0.1 },
    { config: "bm25", k: 10, value: 0.12 },
    { config: "tfidf", k: 10, value: 0.3 },
  ];
  assertEquals(gapLines(kit, cells), {
    ks: [1, 10],
    lines: [
      { config: "bm25", gap_1: null, gap_10: 0.12 },
      { config: "paper-a", gap_1: 0, gap_10: 0.21 },
    ],
  });
});
