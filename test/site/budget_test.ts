/**
 * The site's download budget (_page_budget.ts `overBudget`), checked in the
 * browser on the site of both runs (test/site/runs_site.ts, run from the
 * release profile's test, which has the release run).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { MB, overBudget, type PageFigures } from "./_page_budget.ts";

Deno.test("overBudget names each page over its bytes, slow or without a number", () => {
  const page = (p: string, bytes: number, ms: number | null): PageFigures => ({
    page: p,
    bytes,
    engineBytes: 36 * MB,
    firstNumberMs: ms,
    failed: [],
    dataFiles: 3,
    problems: [],
  });
  assertEquals(
    overBudget([
      page("/", 1.9 * MB, 400),
      page("/gap", 2.1 * MB, 400),
      page("/sql", 4.9 * MB, 200),
      page("/sql (after)", 40 * MB, null),
      page("/explorer", 1 * MB, 3200),
      page("/audit", 1 * MB, null),
    ]),
    [
      "/gap: 2.1 MB besides the engine (budget 2.0 MB)",
      "/explorer: first number after 3200 ms",
      "/audit: no number drawn from data",
    ],
  );
});
