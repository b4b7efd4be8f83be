import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  mutationReproduction,
  oracleByLabel,
  releaseHeadline,
  releaseStatus,
  releaseStatusText,
} from "./release_summary.ts";

const m = (config: string, metric: string, k: number, value: number, extra = {}) => ({
  config,
  metric,
  k,
  value,
  ci_low: value - 0.1,
  ci_high: value + 0.1,
  ...extra,
});

const metrics = [
  // The kit's own retrievers never count as the paper's top system, however high.
  m("bm25", "exec", 1, 0.9),
  m("bm25", "exec", 10, 1),
  ...[
    ["paper-a", 0.3, 0.9, 0.95, 0.7],
    ["paper-b", 0.4, 1.0, 0.99, 0.67],
    ["paper-c", 0.4, 0.8, 0.915, 0.78],
    ["paper-d", 0.2, 0.7, 0.5, 0.1],
    ["paper-e", 0.1, 0.6, 0.2, 0.9],
  ].flatMap(([c, e1, e10, own, below]) => [
    m(c as string, "exec", 1, e1 as number),
    m(c as string, "exec", 5, 0.5),
    m(c as string, "exec", 10, e10 as number),
    m(c as string, "exec", 20, 1),
    m(c as string, "miss_own_distractor", 1, own as number),
    m(c as string, "below_distractor", 0, below as number),
  ]),
];

Deno.test("releaseHeadline takes the top released system by exec@1, ties by exec@10", () => {
  const h = releaseHeadline(metrics)!;
  assertEquals(h.top, "paper-b");
  assertEquals([h.exec1, h.topK, h.execTop], [0.4, 10, 1.0]);
  assertEquals(h.exec1Low, 0.4 - 0.1);
  // The four leading systems by exec@1; paper-e (last) is left out of the ranges.
  assertEquals(h.leading, ["paper-b", "paper-c", "paper-a", "paper-d"]);
  assertEquals([h.ownMisses.min, h.ownMisses.max], [0.5, 0.99]);
  assertEquals([h.belowDistractor.min, h.belowDistractor.max], [0.1, 0.78]);
  assertEquals(releaseHeadline(metrics, 2)!.ownMisses.values, [
    { config: "paper-b", value: 0.99 },
    { config: "paper-c", value: 0.915 },
  ]);
});

Deno.test("releaseHeadline is null on a run without released systems", () => {
  assertEquals(releaseHeadline(metrics.filter((r) => r.config === "bm25")), null);
  assertEquals(releaseHeadline([]), null);
});

Deno.test("releaseStatus counts replayed numbers, identical systems and agreeing snippets", () => {
  const s = releaseStatus(
    [
      { status: "equal", flagged: false },
      { status: "differs", flagged: true },
      { status: "missing", flagged: true },
      { status: "kit_own", flagged: false },
    ],
    [
      { config: "bm25", queries: 24, identical_top10: 0, kit_own: true },
      { config: "paper-a", queries: 24, identical_top10: 24, kit_own: false },
      { config: "paper-b", queries: 24, identical_top10: 23, kit_own: false },
    ],
    [{ agree: true }, { agree: true }, { agree: false }],
  );
  assertEquals(s, {
    compared: 3,
    flagged: 2,
    kitOwn: 1,
    identical: 1,
    systems: 2,
    oracleAgree: 2,
    oracleTotal: 3,
  });
  assertEquals(
    releaseStatusText(s),
    "3 released numbers compared, 2 flagged; top-10 lists identical for 1 of 2 systems; oracle agreement 2 of 3 snippets.",
  );
});

Deno.test("mutationReproduction gives each bug type's exact share and a total", () => {
  const r = (t: string, reproduced: string, same: boolean | null) => ({
    released_bug_type: t,
    reproduced,
    same_bug_type: same,
  });
  const lines = mutationReproduction([
    r("off_by_one", "exact", true),
    r("off_by_one", "no", null),
    r("wrong_operator", "trailing_whitespace", false),
    r("off_by_one", "exact", false),
  ]);
  assertEquals(lines, [
    {
      bug_type: "off_by_one",
      distractors: 3,
      exact: 2,
      trailing_whitespace: 0,
      exact_share: 2 / 3,
      same_bug_type: 1,
    },
    {
      bug_type: "wrong_operator",
      distractors: 1,
      exact: 0,
      trailing_whitespace: 1,
      exact_share: 0,
      same_bug_type: 0,
    },
    {
      bug_type: "all",
      distractors: 4,
      exact: 2,
      trailing_whitespace: 1,
      exact_share: 0.5,
      same_bug_type: 1,
    },
  ]);
  assertEquals(mutationReproduction([]), []);
});

Deno.test("oracleByLabel sums snippets and tests per label", () => {
  const o = (
    label: string,
    agree: boolean,
    tests: number,
    ok: number,
    released: boolean | null,
  ) => ({
    label,
    agree,
    tests,
    tests_agreeing: ok,
    released_pass: released,
  });
  assertEquals(
    oracleByLabel([
      o("correct", true, 5, 5, true),
      o("incorrect", false, 4, 3, null),
      o("incorrect", true, 2, 2, false),
    ]),
    [
      { label: "correct", snippets: 1, agree: 1, tests: 5, tests_agreeing: 5, not_in_cache: 0 },
      { label: "incorrect", snippets: 2, agree: 1, tests: 6, tests_agreeing: 5, not_in_cache: 1 },
      { label: "all", snippets: 3, agree: 2, tests: 11, tests_agreeing: 10, not_in_cache: 1 },
    ],
  );
});
