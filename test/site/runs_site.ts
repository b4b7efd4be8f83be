/**
 * The site of two runs as GitHub Pages publishes it (src/site/site_runs.ts):
 * the release run and a regenerated benchmark in one site, served on loopback
 * under /execret-kit/ through a ~20 Mbit/s link. Every page of the release
 * run, two of the regenerated run's and the landing and SQL pages load their
 * data with no failed request and no error, each run's page says which run
 * it shows, every page keeps the download budget (_page_budget.ts), and the
 * SQL console queries both runs' schemas. The per-page figures are printed,
 * run by run.
 *
 * The regenerated run is the fixture run, whose every page site_test.ts
 * loads in its own site: here the same pages differ only by their folder and
 * banner, which two of them show, and each cold load costs ~1 CPU-s of
 * Chromium (every page is loaded without a cache, for its budget figures).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { readRows } from "../../src/io/arrow_table.ts";
import { buildRunsSite } from "../../src/site/build_site.ts";
import { sitePaths, type SiteRun } from "../../src/site/site_runs.ts";
import { makeFixtureRunInProcess } from "../fixtures/run/fixture_process.ts";
import { figuresTable, measurePages, overBudget } from "./_page_budget.ts";

const BASE = "/execret-kit/";
/** The regenerated run's pages loaded here (its index and a page of figures). */
const REGENERATED_PAGES = ["", "gap"];

/** A site of two runs, built: its folder and its runs. */
export interface RunsSite {
  site: string;
  runs: SiteRun[];
}

/**
 * Build the site of the release run in `release` (as run `release`) and a
 * fixture run made under `tmp` (as run `regenerated`).
 */
export async function buildReleaseRunsSite(release: string, tmp: string): Promise<RunsSite> {
  const regenerated = join(tmp, "regenerated");
  await makeFixtureRunInProcess(regenerated);
  const runs: SiteRun[] = [
    { name: "release", out: release },
    { name: "regenerated", out: regenerated },
  ];
  const site = join(tmp, "runs-site");
  const built = await buildRunsSite(runs, {
    quiet: true,
    env: { EXECRET_SITE_OUT: site, EXECRET_SITE_READ_ONLY: "1" },
  });
  assertEquals(built.code, 0, built.output.slice(-3000));
  return { site, runs };
}

/** Check the built site of two runs page by page through the paced link. */
export async function checkRunsSite({ site, runs }: RunsSite): Promise<void> {
  const [release, regenerated] = runs.map((r) => r.out);

  const banners = new Map<string, string>();
  const sqlRows: string[][] = [];
  const paths = sitePaths(runs).filter((p) =>
    !p.startsWith(`/${runs[1].name}/`) ||
    REGENERATED_PAGES.includes(p.slice(runs[1].name.length + 2))
  );
  const figures = await measurePages(site, BASE, paths, async (page, path) => {
    const run = runs.find((r) => path.startsWith(`/${r.name}/`));
    if (run) {
      banners.set(
        path,
        await page.locator("[data-testid=run-banner]").getAttribute("data-run") ?? "",
      );
    }
    if (path !== "/sql") return false;
    // One query over both runs' schemas: DuckDB-wasm and every table load now.
    await page.locator("textarea").fill(
      "SELECT (SELECT count(*) FROM release.metrics) AS a, (SELECT count(*) FROM regenerated.metrics) AS b, (SELECT count(*) FROM metrics) AS plain",
    );
    await page.locator("form button[type=submit]").click();
    await page.locator("[data-testid=sql-count]").waitFor({ timeout: 120_000 });
    sqlRows.push(
      ...await page.locator("[data-testid=sql-result] table tbody tr").evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent!.trim()))
      ),
    );
    return true;
  });
  const byRun = (name: string) => figures.filter((f) => f.page.startsWith(`/${name}/`));
  console.log(
    `\n${figuresTable("release", byRun("release"))}\n${
      figuresTable("regenerated", byRun("regenerated")).split("\n").slice(2).join("\n")
    }\n${
      figuresTable(
        "both",
        figures.filter((f) => !runs.some((r) => f.page.startsWith(`/${r.name}/`))),
      ).split("\n").slice(2).join("\n")
    }\n`,
  );
  // Each run's pages say which run they show.
  for (const [path, run] of banners) ok(path.startsWith(`/${run}/`), `${path} names run ${run}`);
  assertEquals(banners.size, byRun("release").length + byRun("regenerated").length);
  assertEquals(byRun("regenerated").length, REGENERATED_PAGES.length);
  // The console read each run's own tables, and the first run's under plain names.
  const count = async (out: string) =>
    (await readRows(join(out, "tables", "metrics.arrow"))).length;
  const [a, b] = [await count(release), await count(regenerated)];
  assertEquals(sqlRows, [[String(a), String(b), String(a)]]);
  assertEquals(overBudget(figures), []);
}
