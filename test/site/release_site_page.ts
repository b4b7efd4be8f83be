/**
 * The pages of a release run, checked in headless Chromium on a site of
 * several runs (src/site/site_runs.ts, where they are under `/<run>/`):
 * serve it on loopback and check that the Overview shows the paper's
 * headline numbers regenerated from the released systems and the
 * comparison's status line, and that the Leaderboard, Significance and
 * Functional-gap pages set released numbers beside the kit's with no cell
 * flagged, and the Release audit page shows the run's own comparison,
 * findings and oracle agreement (never "No release has been audited"); and,
 * on a run of a bundle copy with one released metric changed (re-signed in
 * SHA256SUMS, {@link alterReleasedExec1}), that exactly that cell is flagged
 * on the Leaderboard. The runs (`execret reproduce` with the release profile
 * on the committed fixture bundle, through the CLI) are the ones
 * test/pipeline/release_profile_test.ts checks table by table, where these
 * checks run too: each run is made once for both.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { readRows } from "../../src/io/arrow_table.ts";
import { sha256Hex } from "../../src/io/hash.ts";
import { fmt, fmtPct } from "../../src/site/report/format.ts";
import { serveSite } from "../../src/site/static_server.ts";
import { pagesAhead, reusedTabs } from "./pages_ahead.ts";
import { overlappingLabels, truncatedCells } from "./_layout_checks.ts";
import { runLoader } from "../support/run_loader.ts";

type Row = Record<string, unknown>;
const WAIT = { timeout: 120_000 };

/**
 * Change the released exec@1 of one results file by one unit of its last
 * decimal, in place as text (every other number keeps its written form, so
 * the released precision is unchanged), and rewrite its SHA256SUMS line.
 */
export async function alterReleasedExec1(bundle: string, file: string): Promise<number> {
  const path = join(bundle, "results", file);
  const text = await Deno.readTextFile(path);
  const at = text.indexOf('"metrics"');
  const m = /"exec@1": (-?[0-9.]+)/.exec(text.slice(at));
  ok(m, `${path}: no metrics["exec@1"]`);
  const written = m[1];
  const decimals = written.includes(".") ? written.split(".")[1].length : 0;
  const changed = (Number(written) + 10 ** -Math.max(decimals, 2)).toFixed(Math.max(decimals, 2));
  const start = at + m.index;
  const altered = text.slice(0, start) + `"exec@1": ${changed}` + text.slice(start + m[0].length);
  await Deno.writeTextFile(path, altered);
  const sums = join(bundle, "SHA256SUMS");
  const digest = sha256Hex(new TextEncoder().encode(altered));
  const lines = (await Deno.readTextFile(sums)).split("\n").map((line) =>
    line.endsWith(`  results/${file}`) ? `${digest}  results/${file}` : line
  );
  await Deno.writeTextFile(sums, lines.join("\n"));
  return Number(changed);
}

/**
 * Wait for a page's cells to settle, then record any cell error, table text
 * cut short or chart labels over each other (the context is 1280 px wide).
 */
async function settle(page: Page, path: string, problems: string[]) {
  await page.waitForFunction("!document.querySelector('observablehq-loading')", null, WAIT);
  for (const e of await page.locator(".observablehq--error").all()) {
    problems.push(`${path}: cell error: ${await e.innerText()}`);
  }
  for (const cut of await truncatedCells(page)) problems.push(`${path}: cut short ${cut}`);
  for (const o of await overlappingLabels(page)) problems.push(`${path}: labels overlap ${o}`);
}

/**
 * Check the pages of the release run in `out` on the site built in `site`,
 * where they are under `/<run>/` (a site of several runs), one step of `t`
 * per page; the run's tables give every expected number.
 */
export async function checkReleaseSite(
  t: Deno.TestContext,
  out: string,
  context: BrowserContext,
  site: string,
  run: string,
): Promise<void> {
  const problems: string[] = [];
  const servers: { close(): Promise<void> }[] = [];
  try {
    const tables = (name: string) => readRows<Row>(join(out, "tables", `${name}.arrow`));
    const metrics = await tables("metrics");
    const comparison = await tables("paper_comparison");
    const agreement = await tables("ranking_agreement");
    const oracle = await tables("oracle_agreement");
    ok(comparison.length > 0, "the release run wrote no paper_comparison rows");

    const server = serveSite(site);
    servers.push(server);
    // Each step's page loads while the step before it runs (pages_ahead.ts).
    const openAhead = pagesAhead(
      ["/", "/leaderboard", "/significance", "/gap", "/benchmark", "/audit"],
      reusedTabs(context, `${server.url}/${run}`, {
        problem: (path, text) => problems.push(`${path}: ${text}`),
      }),
    );

    await t.step(
      "Overview: the headline regenerated from the released systems, and the status line",
      async () => {
        const page = await openAhead("/");
        const value = (config: string, metric: string, k: number) =>
          metrics.find((m) => m.config === config && m.metric === metric && m.k === k)
            ?.value as number;
        const paper = [...new Set(metrics.map((m) => String(m.config)))]
          .filter((c) => c.startsWith("paper-"))
          .sort((a, b) =>
            value(b, "exec", 1) - value(a, "exec", 1) ||
            value(b, "exec", 10) - value(a, "exec", 10) || a.localeCompare(b)
          );
        ok(paper.length >= 3, `released systems scored: ${paper}`);
        const top = paper[0];
        const lead = paper.slice(0, 4);
        const span = (metric: string, k: number) => {
          const v = lead.map((c) => value(c, metric, k));
          return `${fmtPct(Math.min(...v))}–${fmtPct(Math.max(...v))}`;
        };
        await page.locator("[data-testid=release-status]").waitFor(WAIT);
        assertEquals(await page.locator("[data-testid=release-top]").innerText(), top);
        const big = (id: string) => page.locator(`[data-testid=${id}] .big`).innerText();
        const claim = (id: string) => page.locator(`[data-testid=${id}-paper]`).innerText();
        assertEquals(await big("release-exec-top"), fmt(value(top, "exec", 10)));
        assertEquals(await big("release-exec1"), fmt(value(top, "exec", 1)));
        assertEquals(await big("release-own"), span("miss_own_distractor", 1));
        assertEquals(await big("release-below"), span("below_distractor", 0));
        // The paper's stated values sit beside them.
        assertEquals(
          [
            await claim("release-exec-top"),
            await claim("release-exec1"),
            await claim("release-own"),
            await claim("release-below"),
          ],
          ["1.00", "0.331", "91.5–99.4%", "67–78%"],
        );
        const replayed = comparison.filter((r) => r.status !== "kit_own");
        const systems = agreement.filter((r) => !r.kit_own);
        const identical = systems.filter((r) => r.identical_top10 === r.queries);
        assertEquals(identical.length, systems.length, "a released top-10 list differs");
        assertEquals(
          await page.locator("[data-testid=release-status]").innerText(),
          `${replayed.length} released numbers compared, 0 flagged; ` +
            `top-10 lists identical for ${identical.length} of ${systems.length} systems; ` +
            `oracle agreement ${
              oracle.filter((r) => r.agree).length
            } of ${oracle.length} snippets.`,
        );
        await settle(page, "/", problems);
      },
    );

    /** On `path`: released numbers beside the kit's in `cells` cells, none flagged. */
    const noneFlagged = async (path: string, scope: string, cells: number) => {
      const page = await openAhead(path);
      await page.locator(`${scope} .release-cell`).first().waitFor(WAIT);
      await settle(page, path, problems);
      assertEquals(await page.locator(`${scope} .release-cell`).count(), cells, path);
      assertEquals(await page.locator(".flagged").count(), 0, `${path}: flagged cells`);
      assertEquals(
        (await page.locator("[data-testid=release-differ-count]").innerText()).startsWith(
          "0 cells differ from the release",
        ),
        true,
      );
      // The kit's own BM25 is shown beside the released one, marked, and not flagged.
      ok(
        await page.locator(`${scope} .release-cell.kit-own`).count() > 0,
        `${path}: no BM25 cell`,
      );
      ok(
        (await page.locator(`${scope} .release-cell.kit-own .marker`).first().innerText())
          .includes("kit's own BM25"),
      );
      return page;
    };
    /** Distinct cells the release reports among `rows`. */
    const distinct = (rows: Row[], key: (r: Row) => string) => new Set(rows.map(key)).size;

    await t.step(
      "Leaderboard: every released cell at k = 1 beside the kit's, none flagged",
      async () => {
        const atK1 = comparison.filter((r) =>
          r.k === 1 && (r.section === "metric" || r.section === "interval")
        );
        const page = await noneFlagged(
          "/leaderboard",
          "[data-testid=leaderboard]",
          distinct(atK1, (r) => `${r.config}|${r.metric}`),
        );
        // One released value, as written, under the kit's.
        const exec1 = atK1.find((r) =>
          r.section === "metric" && r.metric === "exec" && r.status === "equal"
        )!;
        const row = page.locator("[data-testid=leaderboard] tbody tr", {
          hasText: String(exec1.config),
        });
        ok((await row.innerText()).includes(`paper ${exec1.released}`), await row.innerText());
      },
    );

    await t.step(
      "Significance: released pairwise tests beside the kit's, none flagged",
      async () => {
        const exec1 = comparison.filter((r) =>
          r.section === "pairwise" && r.metric === "exec" && r.k === 1
        );
        // Columns: A − B (with the rates), CI low, CI high, the four counts and McNemar p.
        await noneFlagged(
          "/significance",
          "[data-testid=pairwise]",
          distinct(exec1, (r) => `${r.config}|${r.config_b}`) * 8,
        );
      },
    );

    await t.step("Functional gap: the released gap beside the kit's, none flagged", async () => {
      const gap = comparison.filter((r) => r.section === "metric" && r.metric === "gap");
      await noneFlagged("/gap", "[data-testid=release-gap]", gap.length);
    });

    await t.step(
      "Benchmark: the engine's reproduction of released distractors and the oracle's agreement",
      async () => {
        const page = await openAhead("/benchmark");
        await page.locator("[data-testid=release-mutations] tbody tr").first().waitFor(WAIT);
        await settle(page, "/benchmark", problems);
        const mutations = await tables("release_mutations");
        const all = page.locator("[data-testid=release-mutations] tbody tr", { hasText: "all" });
        const exact = mutations.filter((r) => r.reproduced === "exact").length;
        ok(
          (await all.innerText()).includes(fmtPct(exact / mutations.length)),
          await all.innerText(),
        );
        const oracleAll = page.locator("[data-testid=release-oracle] tbody tr", {
          hasText: "all",
        });
        ok((await oracleAll.innerText()).includes(String(oracle.length)));
      },
    );

    await t.step(
      "Release audit: this run's comparison, findings and oracle agreement",
      async () => {
        const page = await openAhead("/audit");
        await page.locator("[data-testid=audit-findings] tbody tr").first().waitFor(WAIT);
        await settle(page, "/audit", problems);
        const text = await page.locator("main").innerText();
        ok(!text.includes("No release has been audited"), "the page says no release was audited");
        ok(!text.includes("read no release"), "the page says the run read no release");
        const findings = await tables("release_findings");
        const documented = findings.filter((f) => f.documented).reduce(
          (n, f) => n + Number(f.count),
          0,
        );
        ok(documented > 0, "the fixture's documented empty lists are findings");
        const status = await page.locator("[data-testid=audit-status]").innerText();
        ok(
          status.startsWith(
            `${comparison.filter((r) => r.status !== "kit_own").length} released ` +
              `numbers compared, 0 flagged;`,
          ),
          status,
        );
        ok(status.includes(`noticed ${documented} documented cases and 0 other things`), status);
        assertEquals(
          await page.locator("[data-testid=audit-findings] tbody tr").count(),
          findings.length,
        );
        assertEquals(
          await page.locator("[data-testid=audit-flagged]").innerText(),
          "No released number is flagged.",
        );
        const unreleased = await tables("oracle_not_in_release");
        ok(unreleased.length > 0);
        const line = await page.locator("[data-testid=audit-not-in-release]").innerText();
        ok(
          line.startsWith(`Not in the release: ${unreleased.length} (query, snippet) pairs`),
          line,
        );
        ok(line.includes("The kit ran them: 0 pass every test"), line);
        const oracleAll = page.locator("[data-testid=audit-oracle] tbody tr", { hasText: "all" });
        ok((await oracleAll.innerText()).includes(String(oracle.length)));
      },
    );

    assertEquals(problems, []);
  } finally {
    for (const s of servers) await s.close();
  }
}

/** The Leaderboard's data: its queries' rows, made at build time (src/site/pages.ts). */
const LEADERBOARD_DATA = "page_leaderboard.json";

/** A data file of the site for the run in `out`, as its loader would have written it. */
async function loaderOutput(out: string, file: string): Promise<Buffer> {
  const { code, stdout, stderr } = await runLoader("src/site/site_data.ts", out, file);
  ok(code === 0, `${file} loader on ${out}: ${stderr.slice(-1500)}`);
  return Buffer.from(stdout);
}

/**
 * Check that the Leaderboard flags exactly the changed cell of the run in
 * `out2` (a bundle copy with one released metric changed): the page as built
 * in `site` under `/<run>/` (the base run's pages, from the same release but
 * for that value) shown with the Leaderboard's data from `out2`, made by its
 * own data loader. The page's code and every other file are the built
 * site's; a whole second site build cost ~14 CPU-s for this one file.
 */
export async function checkFlaggedCell(
  context: BrowserContext,
  site: string,
  run: string,
  out2: string,
  changed: number,
): Promise<void> {
  const problems: string[] = [];
  const body = await loaderOutput(out2, LEADERBOARD_DATA);
  let served = 0;
  const server = serveSite(site);
  try {
    // Framework names a data file by content (`_file/data/<name>.<hash>.json`).
    // Only this server's: the context may hold pages of another site.
    const dataFile = new RegExp(
      `^${RegExp.escape(server.url)}/_file/${run}/data/page_leaderboard\\.[0-9a-f]+\\.json$`,
    );
    await context.route(dataFile, async (route) => {
      served++;
      await route.fulfill({ status: 200, contentType: "application/json", body });
    });
    const page = await reusedTabs(context, server.url, {
      problem: (path, text) => problems.push(`${path}: ${text}`),
    })(`/${run}/leaderboard`, 0);
    await page.locator("[data-testid=leaderboard] .release-cell").first().waitFor(WAIT);
    await settle(page, "/leaderboard", problems);
    assertEquals(served, 1, `${LEADERBOARD_DATA} served from the changed run`);
    assertEquals(await page.locator(".flagged").count(), 1);
    assertEquals(
      (await page.locator("[data-testid=release-differ-count]").innerText()).startsWith(
        "1 cell differs from the release",
      ),
      true,
    );
    const flagged = await page.locator(".flagged").innerText();
    ok(flagged.includes(`paper ${changed}`) && flagged.includes("⚑ differs"), flagged);
    assertEquals(problems, []);
  } finally {
    await server.close();
  }
}
