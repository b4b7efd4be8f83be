/**
 * The report site, end to end: build it over the fixture run (network denied,
 * as `make site` does), serve it on loopback under a sub-path as GitHub Pages
 * serves a project site (`/<repo>/`), open every page in headless Debian
 * Chromium and check that it shows exactly the numbers in the fixture's
 * tables, that its inputs work, that every page loads its data with no
 * failed request, makes no request outside the site, logs no error, and
 * shows no raw `null`, `undefined` or `NaN`.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { readRows } from "../../src/io/arrow_table.ts";
import { sha256Hex } from "../../src/io/hash.ts";
import { lineDiff } from "../../src/site/report/diff.ts";
import { fmt, fmtCI, fmtP, fmtPct } from "../../src/site/report/format.ts";
import config from "../../observablehq.config.ts";
import { fixtureSite } from "./_fixture_site.ts";
import { checkFigures } from "./figures_checks.ts";
import { rawValueLines } from "./raw_values.ts";
import { siteSession, tableRows, WAIT } from "./_site_session.ts";

type Row = Record<string, unknown>;
/** Raw values where a reader sees them, and words and editors that are not raw values. */
const RAW_VALUE_PAGE = `<!doctype html><body>
<p>exec@1 <span>null</span></p>
<p>nullable, nulls, NaNs and undefinedness are words of their own</p>
<table><tr><td>gap</td><td>NaN%</td></tr></table>
<p hidden>undefined but hidden</p>
<textarea>SELECT * FROM t WHERE x IS null</textarea>
<input value="undefined">
<div contenteditable>SELECT NaN</div>
<div class="cm-editor"><div>WHERE y = null</div></div>
<p>after the editors: undefined</p>
</body>`;

/** The pages with a step of their own, in step order; the others share the last page step. */
const CHECKED_ALONE = [
  "/",
  "/leaderboard",
  "/benchmark",
  "/gap",
  "/significance",
  "/your_models",
  "/explorer",
  "/sql",
  "/methods",
];

/**
 * For each page without a step of its own: what it shows once every cell that
 * waits on data has run. Framework marks only inline expressions as loading,
 * and "network idle" comes before DuckDB has read a table when compiling
 * DuckDB-wasm takes the CPU for more than half a second (CI once closed
 * /audit before it fetched its table), so the step waits for these instead.
 */
const READY: Record<string, string[]> = {
  // One cell reads every table; the rest render its outputs in the same pass.
  "/closing_the_gap": ["[data-testid=no-rerankers], [data-testid=reranker-count]"],
  // Each cell runs its own query.
  "/audit": [
    "[data-testid=audit-status]",
    "[data-testid=audit-comparison] table",
    "[data-testid=audit-findings]",
    "[data-testid=audit-oracle] table",
    "[data-testid=audit-not-in-release]",
    "[data-testid=audit-rankings] table",
    "[data-testid=audit-mutations] table",
  ],
};

// Here, not in a file of its own, so that it reads the site this module builds.
Deno.test({
  name: "each figure is a Vega-Lite spec and an SVG holding the run's numbers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { out, site } = await fixtureSite();
    await checkFigures(out, site);
  },
});

Deno.test({
  name: "report site renders the fixture run's numbers offline",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const { out, site: siteDir } = await fixtureSite();

    const tables = async <T = Row>(name: string) =>
      await readRows<T>(join(out, "tables", `${name}.arrow`));
    const metrics = await tables("metrics");
    const rankings = await tables("rankings");
    const queries = await tables("queries");
    const corpus = await tables("corpus");
    const pairwise = await tables("pairwise");
    const rejects = await tables("rejects");
    const breakdowns = await tables("breakdowns");
    const manifestBytes = await Deno.readFile(join(out, "manifest.json"));
    const metricConfigs = () => [...new Set(metrics.map((m) => m.config as string))];

    const session = await siteSession(siteDir, [
      ...CHECKED_ALONE,
      ...config.pages.map((p) => p.path).filter((p) => !CHECKED_ALONE.includes(p)),
    ]);
    const { context, open, noCellErrors, problems, requests, dataLoaded, checked } = session;

    try {
      // The raw-value finder every page's check relies on, first on a page
      // of known text (in this browser: a launch of its own cost ~3 CPU-s).
      await t.step(
        "rawValueLines finds raw null/undefined/NaN in shown text, not in editors",
        async () => {
          // In the pages' context: Chromium in one process renders one context's pages only.
          const page = await context.newPage();
          await page.setContent(RAW_VALUE_PAGE);
          assertEquals(await rawValueLines(page), [
            "exec@1 null",
            "gap\tNaN%",
            "after the editors: undefined",
          ]);
          // The editors are shown again afterwards.
          assertEquals(await page.locator("textarea").isVisible(), true);
        },
      );

      await t.step("overview shows the best exec@1 config and its headline numbers", async () => {
        const page = await open("/");
        const exec = (k: number) => metrics.filter((m) => m.metric === "exec" && m.k === k);
        const best = exec(1).sort((a, b) =>
          (b.value as number) - (a.value as number) ||
          String(a.config).localeCompare(String(b.config))
        )[0];
        const top = exec(10).find((m) => m.config === best.config)!;
        const card = (id: string) => page.locator(`[data-testid=${id}] .big`);
        await card("best-config").waitFor(WAIT);
        assertEquals(await card("best-config").innerText(), best.config);
        assertEquals(await card("best-exec1").innerText(), fmt(best.value as number));
        assertEquals(await card("best-exec-top").innerText(), fmt(top.value as number));
        // The diagnostic shares are the stats stage's aggregates for that config.
        const agg = (metric: string) =>
          metrics.find((m) => m.config === best.config && m.metric === metric)!.value as number;
        assertEquals(await card("own-share").innerText(), fmtPct(agg("miss_own_distractor")));
        assertEquals(await card("below-share").innerText(), fmtPct(agg("below_distractor")));
        // The fixture has no reranked configs: the best retriever is the best config.
        assertEquals(await page.locator("[data-testid=below-retriever]").innerText(), best.config);
        assertEquals(
          await page.locator("[data-testid=manifest-sha]").innerText(),
          sha256Hex(manifestBytes),
        );
        await noCellErrors(page, "/");
      });

      await t.step(
        "leaderboard shows every config's metrics with intervals, and k drives it",
        async () => {
          const page = await open("/leaderboard");
          for (const k of [1, 3]) {
            if (k !== 1) {
              await page.locator("form select").first().selectOption({ label: String(k) });
            }
            await page.locator(`[data-testid=leaderboard] th:has-text("exec@${k}")`).waitFor(WAIT);
            const rows = await tableRows(page, "[data-testid=leaderboard]");
            const configs = [...new Set(metrics.map((m) => m.config as string))];
            assertEquals(rows.length, configs.length);
            for (const row of rows) {
              const [config, ...cells] = row;
              const expected = ["exec", "precision", "ndcg", "gap"].map((metric) => {
                const m = metrics.find((x) =>
                  x.config === config && x.metric === metric && x.k === k
                )!;
                return fmtCI(m.value as number, m.ci_low as number, m.ci_high as number);
              });
              assertEquals(cells, expected, `${config} at k=${k}`);
            }
          }
          // The board: one row per config, its exec@1 with its interval, as computed here.
          const board = await tableRows(page, "[data-testid=board]");
          const configs = [...new Set(metrics.map((m) => m.config as string))];
          assertEquals(board.map((r) => r[0]).sort(), configs.sort());
          for (const [model, level, exec1] of board) {
            const m = metrics.find((x) => x.config === model && x.metric === "exec" && x.k === 1)!;
            const f = (v: unknown) => (v as number).toFixed(3);
            assertEquals([level, exec1], [
              "kit",
              `${f(m.value)} [${f(m.ci_low)}, ${f(m.ci_high)}]`,
            ]);
          }
          await page.locator("[data-testid=exec-curve] svg").first().waitFor(WAIT);
          ok(await page.locator("[data-testid=exec-curve] svg").count() >= 1, "exec@k curve drawn");
          // The group table follows the k chosen above (3) and the group-by radio.
          await page.locator('[data-testid=breakdowns] th:has-text("exec@3")').waitFor(WAIT);
          await page.getByLabel("domain").check();
          await page.locator('[data-testid=breakdowns] th:has-text("domain")').waitFor(WAIT);
          const groups = await tableRows(page, "[data-testid=breakdowns]");
          const expected = breakdowns.filter((b) =>
            b.group_by === "domain" && b.metric === "exec" && b.k === 3
          );
          assertEquals(groups.length, expected.length);
          for (const [group, config, value] of groups) {
            const b = expected.find((e) => e.group === group && e.config === config)!;
            assertEquals(value, fmt(b.value as number), `${group} ${config}`);
          }
          await noCellErrors(page, "/leaderboard");
        },
      );

      await t.step(
        "benchmark lists the dataset, validation gates and every reject, group by group",
        async () => {
          const page = await open("/benchmark");
          const dataset = await tableRows(page, "[data-testid=dataset]");
          const pairs = new Set(queries.map((q) => `${q.source}/${q.domain}`));
          assertEquals(dataset.length, pairs.size);
          assertEquals(
            dataset.reduce((s, r) => s + Number(r[3]), 0),
            corpus.filter((c) => c.label === "incorrect").length,
          );
          // Every group of rejects (stage, reason before its colon) lists exactly its rejects.
          const groups = new Map<string, string[]>();
          for (const r of rejects) {
            const key = `${r.stage}: ${String(r.reason).split(":")[0]}`;
            groups.set(key, [...(groups.get(key) ?? []), String(r.locator)]);
          }
          const select = page.locator('form:has(label:text-is("Rejects of")) select');
          const labels = await select.locator("option").allTextContents();
          assertEquals(
            labels.map((l) => l.replace(/ \([\d,]+\)$/, "")).sort(),
            [...groups.keys()].sort(),
          );
          for (const label of labels) {
            await select.selectOption({ label });
            const want = groups.get(label.replace(/ \([\d,]+\)$/, ""))!.sort();
            let shown: string[] = [];
            for (let tries = 0; tries < 100; tries++) {
              shown = (await tableRows(page, "[data-testid=rejects]")).map((r) => r[2]).sort();
              if (JSON.stringify(shown) === JSON.stringify(want)) break;
              await page.waitForTimeout(100);
            }
            assertEquals(shown, want, label);
          }
          await page.locator("[data-testid=validation] table").waitFor(WAIT);
          await noCellErrors(page, "/benchmark");
        },
      );

      await t.step("functional gap draws its five figures", async () => {
        const page = await open("/gap");
        await page.locator("[data-testid=miss-causes] svg").first().waitFor(WAIT);
        // Five Vega figures (ranks, margins, histogram, fool rate, misses), each drawn.
        assertEquals(await page.locator("main .vega-figure svg.marks").count(), 5);
        const causes = await tableRows(page, "[data-testid=misses]");
        const missCount = rankings.filter((r) =>
          r.rank === 1 && !(r.label === "correct" && r.own_task)
        ).length;
        assertEquals(causes.reduce((s, r) => s + Number(r[2]), 0), missCount);
        await noCellErrors(page, "/gap");
      });

      await t.step("significance shows Holm-adjusted McNemar p for exec@1", async () => {
        const page = await open("/significance");
        const rows = await tableRows(page, "[data-testid=pairwise]");
        const expected = pairwise.filter((p) => p.metric === "exec" && p.k === 1);
        assertEquals(rows.length, expected.length);
        for (const row of rows) {
          const p = expected.find((e) => e.config_a === row[0] && e.config_b === row[1])!;
          assertEquals(row[7], fmtP(p.p_mcnemar as number));
          ok(row[8].startsWith(fmtP(p.p_holm as number)), `${row[8]} vs ${p.p_holm}`);
        }
        // Another k is not in the build-time data: its rows come from DuckDB-wasm, loaded now.
        await page.locator("form select").nth(1).selectOption({ label: "3" });
        await page.locator('[data-testid=pair-matrix] text:text-is("Δ exec@3 (row − column)")')
          .waitFor(WAIT);
        await page.waitForFunction("!document.querySelector('observablehq-loading')", null, WAIT);
        const at3 = pairwise.filter((p) => p.metric === "exec" && p.k === 3);
        const rows3 = await tableRows(page, "[data-testid=pairwise]");
        assertEquals(rows3.length, at3.length);
        for (const row of rows3) {
          const p = at3.find((e) => e.config_a === row[0] && e.config_b === row[1])!;
          assertEquals(row[7], fmtP(p.p_mcnemar as number));
        }
        await noCellErrors(page, "/significance");
      });

      await t.step(
        "your models sets the user's config among the others, with rank intervals",
        async () => {
          const page = await open("/your_models");
          const manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
          const mine = Object.keys(manifest.user_configs);
          ok(mine.length > 0, "the fixture declares a config of the user's");
          const intro = await page.locator("[data-testid=user-configs]").innerText(WAIT);
          for (const c of mine) ok(intro.includes(c), `${c} named in "${intro}"`);
          // The rank table at the default series (exec@1): every config, its rank and interval.
          const ranks = (await tables("model_ranks"))
            .filter((r) => r.metric === "exec" && r.k === 1);
          ok(ranks.length === metricConfigs().length, "a rank row per config");
          const rows = await tableRows(page, "[data-testid=your-ranks]");
          assertEquals(rows.length, ranks.length);
          for (const row of rows) {
            const config = row[0].replace(/ \(yours\)$/, "");
            const r = ranks.find((x) => x.config === config)!;
            ok(r, `${config} has a model_ranks row`);
            assertEquals(row[0].endsWith("(yours)"), mine.includes(config));
            assertEquals(row[1], String(r.rank));
            assertEquals(row[2], `${r.rank_ci_low}–${r.rank_ci_high} of ${r.n_configs}`);
          }
          // A mark per config in the interval chart.
          const marks = await page.locator(
            "[data-testid=rank-intervals] svg [aria-roledescription=point]",
          ).count();
          assertEquals(marks, ranks.length);
          // Separable from: exactly the pairs whose Holm-adjusted p is below 0.05.
          const versus = await page.locator("[data-testid=versus]").innerText(WAIT);
          for (const c of mine) {
            const against = pairwise.filter((p) =>
              p.metric === "exec" && p.k === 1 && (p.config_a === c || p.config_b === c)
            );
            const sep = against.filter((p) => (p.p_holm as number) < 0.05).length;
            ok(
              versus.includes(`${c} on exec@1: separable from ${sep} of ${against.length}`),
              versus,
            );
          }
          // The bug types that fool it most, highest rate first.
          const fooled = await tableRows(page, "[data-testid=fooled]");
          const outrank = metrics
            .filter((m) =>
              mine.includes(m.config as string) && (m.metric as string).startsWith("outrank:")
            )
            .sort((a, b) =>
              (b.value as number) - (a.value as number) ||
              (a.metric as string).localeCompare(b.metric as string)
            );
          ok(fooled.length > 0 && fooled.length <= outrank.length, `${fooled.length} bug types`);
          assertEquals(fooled[0][1], (outrank[0].metric as string).slice("outrank:".length));
          await noCellErrors(page, "/your_models");
        },
      );

      await t.step("explorer shows the chosen query's edits as diffs", async () => {
        const page = await open("/explorer");
        const chosen = "mbpp/127"; // a task with a setup: outcomes are keyed by setup + code
        // Search narrows the picker to the one query, which it then shows.
        await page.locator("input[type=search]").waitFor(WAIT);
        await page.locator("input[type=search]").fill(chosen);
        await page.locator(`[data-testid=query-card]:has-text("${chosen}")`).waitFor(WAIT);
        const task = corpus.filter((c) => c.task_id === chosen);
        const distractors = task.filter((c) => c.label === "incorrect");
        ok(distractors.length >= 2);
        for (const d of distractors) {
          const section = page.locator(`section.snippet[data-corpus-id="${d.corpus_id}"]`);
          await section.waitFor(WAIT);
          const del = await section.locator(".diff-del").innerText();
          const add = await section.locator(".diff-add").innerText();
          assertEquals(del, `- ${d.before}`);
          assertEquals(add, `+ ${d.after}`);
          const changed = lineDiff(d.before as string, d.after as string).after.find((p) =>
            p.changed
          )!;
          assertEquals(await section.locator(".diff-add mark").innerText(), changed.text);
        }
        const tests = (queries.find((q) => q.query_id === chosen)!.tests as string[]).length;
        assertEquals(
          await page.locator("[data-testid=snippets] .chip").count(),
          tests * task.length,
        );
        const grid = await tableRows(page, "[data-testid=scores]");
        assertEquals(grid.map((r) => r[0]).sort(), task.map((c) => c.corpus_id as string).sort());
        await noCellErrors(page, "/explorer");
      });

      await t.step("SQL console runs a typed query and the examples", async () => {
        const page = await open("/sql");
        // Nothing is queried (nor DuckDB-wasm loaded) before the first Run.
        await page.locator("[data-testid=sql-idle]").waitFor(WAIT);
        const sql = "SELECT query_id FROM queries WHERE source = 'mbpp' ORDER BY query_id";
        await page.locator("textarea").fill(sql);
        await page.locator("form button[type=submit]").click();
        const expected = queries.filter((q) => q.source === "mbpp").map((q) => q.query_id as string)
          .sort();
        await page.locator(`[data-testid=sql-count]:text-is("${expected.length} rows")`).waitFor(
          WAIT,
        );
        assertEquals(
          (await tableRows(page, "[data-testid=sql-result]")).map((r) => r[0]),
          expected,
        );

        await page.locator('button[data-example="Distractors per bug type"]').click();
        const bugTypes = new Set(
          corpus.filter((c) => c.label === "incorrect").map((c) => c.bug_type),
        );
        await page.locator(`[data-testid=sql-count]:text-is("${bugTypes.size} rows")`).waitFor(
          WAIT,
        );

        await page.locator("textarea").fill("SELECT nope FROM metrics");
        await page.locator("form button[type=submit]").click();
        ok((await page.locator("[data-testid=sql-error]").innerText()).includes("nope"));
        await page.locator("[data-testid=schema] table").waitFor(WAIT);
        await noCellErrors(page, "/sql");
      });

      await t.step("methods shows the invocation table and the run's timeout", async () => {
        const page = await open("/methods");
        const rows = await tableRows(page, "[data-testid=invocations]");
        ok(rows.some((r) => r[0] === "bm25"));
        const manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
        ok((await page.locator("[data-testid=timeout]").innerText()).startsWith(
          `${manifest.profile.timeout_ms} ms`,
        ));
        await noCellErrors(page, "/methods");
      });

      await t.step("every other page of the sidebar loads cleanly", async () => {
        for (const p of config.pages.filter((p) => !CHECKED_ALONE.includes(p.path))) {
          const ready = READY[p.path];
          ok(ready, `${p.path}: no READY selectors (what it shows once its data is in)`);
          const page = await open(p.path);
          for (const selector of ready) await page.locator(selector).first().waitFor(WAIT);
          await noCellErrors(page, p.path);
        }
      });

      await t.step("every page loaded its data and was checked", () => {
        const paths = config.pages.map((p) => p.path).sort();
        assertEquals([...checked].sort(), paths);
        for (const path of paths) {
          ok((dataLoaded.get(path) ?? []).length > 0, `${path} loaded no data file`);
        }
      });

      await t.step("no page logged an error, failed a request or printed a raw value", () => {
        ok(requests.length > 20, `only ${requests.length} requests recorded`);
        assertEquals(problems, []);
      });
    } finally {
      await session.close();
    }
  },
});
