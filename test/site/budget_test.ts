/**
 * The site's download budget, as a first-time visitor on a ~20 Mbit/s
 * connection meets it: no page other than the SQL console fetches more than
 * 2 MB besides the DuckDB-wasm engine (the console 5 MB before its first
 * query), and every page shows its first number from data within 3 s. The
 * per-page figures are printed as a table (the benchmark the report cites).
 * The fixture run's site is the one site_test.ts checks (_fixture_site.ts).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import config from "../../observablehq.config.ts";
import { fmtBytes } from "../../src/report/format.ts";
import { fixtureSite } from "./_fixture_site.ts";
import { figuresTable, measurePages, type PageFigures } from "./_page_budget.ts";

const MB = 1e6;
/** Bytes a page may fetch besides the engine: the SQL console's, before its first query. */
const BUDGET: Record<string, number> = { "/sql": 5 * MB };
const DEFAULT_BUDGET = 2 * MB;
const FIRST_NUMBER_MS = 3000;

/** What breaks the budget, one line each. */
export function overBudget(figures: readonly PageFigures[]): string[] {
  const problems: string[] = [];
  for (const f of figures) {
    if (f.page.endsWith("(after)")) continue; // reported, not budgeted
    const budget = BUDGET[f.page] ?? DEFAULT_BUDGET;
    if (f.bytes > budget) {
      problems.push(
        `${f.page}: ${fmtBytes(f.bytes)} besides the engine (budget ${fmtBytes(budget)})`,
      );
    }
    if (f.firstNumberMs == null) problems.push(`${f.page}: no number drawn from data`);
    else if (f.firstNumberMs > FIRST_NUMBER_MS) {
      problems.push(`${f.page}: first number after ${f.firstNumberMs.toFixed(0)} ms`);
    }
    for (const failed of f.failed) problems.push(`${f.page}: ${failed}`);
  }
  return problems;
}

Deno.test("overBudget names each page over its bytes, slow or without a number", () => {
  const page = (p: string, bytes: number, ms: number | null): PageFigures => ({
    page: p,
    bytes,
    engineBytes: 36 * MB,
    firstNumberMs: ms,
    failed: [],
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

Deno.test({
  name: "every page of the site keeps its download budget at 20 Mbit/s",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { site } = await fixtureSite();
    const paths = config.pages.map((p) => p.path);
    const figures = await measurePages(site, "/execret-kit/", paths, async (page, path) => {
      if (path !== "/sql") return false;
      // The console's first query: DuckDB-wasm and the tables load now.
      await page.locator("form button[type=submit]").click();
      await page.locator("[data-testid=sql-count]").waitFor({ timeout: 120_000 });
      return true;
    });
    console.log(`\n${figuresTable("fixture", figures)}\n`);
    ok(figures.length > paths.length, "every page measured, and the console's first query");
    // The console loaded nothing of DuckDB-wasm before its first query, and all of it then.
    const sql = figures.find((f) => f.page === "/sql")!;
    const sqlAfter = figures.find((f) => f.page === "/sql (after)")!;
    assertEquals(sql.engineBytes, 0, "the SQL console loaded the engine before a query");
    ok(sqlAfter.engineBytes > 10 * MB, `the first query loaded ${fmtBytes(sqlAfter.engineBytes)}`);
    assertEquals(overBudget(figures), []);
  },
});
