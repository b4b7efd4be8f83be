/**
 * The "Closing the gap" page of a real rerank run's site, checked in
 * headless Chromium: serve the site on loopback under a sub-path as GitHub
 * Pages does, and check that the page shows exactly what the run's tables
 * hold: exec@1 before → after with intervals and McNemar p of each reranked
 * config against each base (metrics, pairwise), the mean cost per query
 * (rerank_cost), the residual rank-1 misses by bug type (rerank_rankings),
 * the visible/hidden split (test_split); and that it logs no error, fails no
 * request and prints no raw null/undefined/NaN. Every expectation is computed
 * from the tables the run wrote. The run (`execret reproduce` through the
 * CLI on the quick profile's built-in tasks with `+exec` on bm25 and tfidf
 * and their rrf fusion, site included) is test/pipeline/rerank_run.ts, which
 * the rerank stage's test reads too; the test itself is in
 * test/pipeline/rerank_test.ts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { readRows } from "../../src/io/arrow_table.ts";
import { launchChromium } from "../../src/site/browser.ts";
import { fmt, fmtCI, fmtP } from "../../src/site/report/format.ts";
import { serveSite } from "../../src/site/static_server.ts";
import { RERANKERS } from "../pipeline/rerank_run.ts";
import { RAW_VALUE, rawValueLines } from "./raw_values.ts";
import { onSite, reusedTabs } from "./pages_ahead.ts";
import { overlappingLabels, truncatedCells } from "./_layout_checks.ts";

type Row = Record<string, unknown>;
const WAIT = { timeout: 60_000 };
/** Where GitHub Pages puts a project site; a fetch by absolute path would miss it. */
const BASE = "/execret-kit/";
/** Each reranked config and the base(s) the page sets it against. */
const PAIRS: [string, string][] = [
  ["bm25+exec", "bm25"],
  ["tfidf+exec", "tfidf"],
  ["rrf:bm25+tfidf", "bm25"],
  ["rrf:bm25+tfidf", "tfidf"],
];

/** Cell texts of the Inputs.table whose header holds `header` (selection column dropped). */
async function tableRows(page: Page, header: string): Promise<string[][]> {
  const table = page.locator("table", { has: page.locator("thead", { hasText: header }) });
  await table.locator("tbody tr").first().waitFor(WAIT);
  return await table.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent!.trim()))
  );
}

/** Sorted copy, so rows compare whatever order the page lists them in. */
const sorted = (rows: string[][]) => rows.map((r) => r.join(" | ")).sort();

/** Check the "Closing the gap" page of the run in `out`, whose site is `out/site`. */
export async function checkClosingTheGapPage(out: string): Promise<void> {
  const problems: string[] = [];
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let server: ReturnType<typeof serveSite> | undefined;
  try {
    const table = (name: string) => readRows<Row>(join(out, "tables", `${name}.arrow`));
    const metrics = await table("metrics");
    const pairwise = await table("pairwise");
    const cost = await table("rerank_cost");
    const reranked = await table("rerank_rankings");
    const split = await table("test_split");

    server = serveSite(join(out, "site"), { base: BASE });
    browser = await launchChromium();
    const url = server.url;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await reusedTabs(context, url, {
      problem: (path, text) => problems.push(`${path}: ${text}`),
      request: (path, requested) => {
        if (!onSite(requested, url)) {
          problems.push(`${path}: request outside the site ${requested}`);
        }
      },
    })("/closing_the_gap", 0);

    // exec@1 before → after: the metrics table's values and intervals, the pairwise McNemar.
    const exec1 = (c: string) => {
      const m = metrics.find((m) => m.config === c && m.metric === "exec" && m.k === 1);
      ok(m, `metrics has no exec@1 of ${c}`);
      return m;
    };
    const expected = PAIRS.map(([config, base]) => {
      const before = exec1(base);
      const after = exec1(config);
      const ab = pairwise.find((p) =>
        p.config_a === base && p.config_b === config && p.metric === "exec" && p.k === 1
      );
      const ba = pairwise.find((p) =>
        p.config_a === config && p.config_b === base && p.metric === "exec" && p.k === 1
      );
      const p = ab ?? ba;
      ok(p && typeof p.p_mcnemar === "number", `pairwise has no McNemar of ${config} vs ${base}`);
      return [
        config,
        base,
        fmtCI(before.value as number, before.ci_low as number, before.ci_high as number),
        fmtCI(after.value as number, after.ci_low as number, after.ci_high as number),
        fmt((after.value as number) - (before.value as number)),
        String(ab ? ab.b_only : ba!.a_only),
        String(ab ? ab.a_only : ba!.b_only),
        fmtP(p.p_mcnemar as number),
      ];
    });
    const beforeAfter = await tableRows(page, "exec@1 before");
    // The last column is Holm p with its stars; the McNemar p is the one tested here.
    assertEquals(sorted(beforeAfter.map((r) => r.slice(0, 8))), sorted(expected));

    // Cost per query: rerank_cost's mean suites and tests per query of each config.
    const configs = [...new Set(cost.map((c) => c.config as string))].sort();
    assertEquals(configs, [...RERANKERS].sort());
    const mean = (rows: Row[], col: string) =>
      rows.reduce((s, r) => s + (r[col] as number), 0) / rows.length;
    const costRows = await tableRows(page, "oracle s");
    assertEquals(
      sorted(costRows.map((r) => r.slice(0, 4))),
      sorted(configs.map((c) => {
        const of = cost.filter((r) => r.config === c);
        return [c, String(of.length), fmt(mean(of, "suites"), 1), fmt(mean(of, "tests"), 1)];
      })),
    );
    ok(
      costRows.some((r) => r[2] !== fmt(0, 1)),
      "no reranked config ran a suite: +exec executed nothing",
    );

    // Residual misses: rank-1 snippets of +exec that are not the canonical, by what won.
    const groups = new Map<string, { misses: number; example: string }>();
    for (const r of reranked) {
      if (r.rank !== 1 || !r.in_top || !String(r.config).endsWith("+exec")) continue;
      if (r.label === "correct" && r.own_task) continue;
      const winner = r.own_task && r.label === "incorrect"
        ? (r.bug_type as string | null) ?? "unknown"
        : "another task's snippet";
      const key = [r.config, winner, r.score === 1 ? "yes" : "no"].join("\t");
      const g = groups.get(key) ?? { misses: 0, example: r.query_id as string };
      g.misses++;
      if ((r.query_id as string) < g.example) g.example = r.query_id as string;
      groups.set(key, g);
    }
    ok(groups.size > 0, "no residual misses: nothing for the table to show");
    const residual = await tableRows(page, "rank-1 snippet");
    assertEquals(
      sorted(residual),
      sorted([...groups].map(([k, g]) => [...k.split("\t"), String(g.misses), g.example])),
    );
    // What the table counts is what exec@1 misses.
    const queries = (await table("queries")).length;
    for (const c of ["bm25+exec", "tfidf+exec"]) {
      const misses = residual.filter((r) => r[0] === c).reduce((s, r) => s + Number(r[3]), 0);
      assertEquals(misses, Math.round(queries * (1 - (exec1(c).value as number))), c);
    }

    // Visible and hidden tests: test_split's counts per method.
    const hows = [...new Set(split.map((s) => s.how as string))].sort();
    assertEquals(
      sorted(await tableRows(page, "visible tests from")),
      sorted(hows.map((how) => {
        const of = split.filter((s) => s.how === how);
        return [
          how === "docstring" ? "docstring examples" : "seeded split",
          String(new Set(of.map((s) => s.task_id)).size),
          String(of.filter((s) => s.visible).length),
          String(of.filter((s) => !s.visible).length),
        ];
      })),
    );
    assertEquals(
      await page.locator("[data-testid=reranker-count]").innerText(),
      `${configs.length} reranked configurations over ${queries} queries.`,
    );

    // Every cell settled without an error, and no value printed raw.
    await page.waitForFunction("!document.querySelector('observablehq-loading')", null, WAIT);
    for (const e of await page.locator(".observablehq--error").all()) {
      problems.push(`cell error: ${await e.innerText()}`);
    }
    for (const line of await rawValueLines(page)) {
      problems.push(`raw ${line.match(RAW_VALUE)![0]} in "${line.slice(0, 200)}"`);
    }
    ok(await page.locator("svg").count() >= 2, "the before → after and cost figures drawn");
    // At 1280 px: no table text cut short, no label of either figure over another.
    for (const cut of await truncatedCells(page)) problems.push(`cut short ${cut}`);
    for (const o of await overlappingLabels(page)) problems.push(`labels overlap ${o}`);
    assertEquals(problems, []);
  } finally {
    await browser?.close();
    await server?.close();
  }
}
