/**
 * What a first-time visitor's browser fetches for each page of a built site
 * over a ~20 Mbit/s connection, and when the page shows its first number.
 * The site is served on loopback through one paced link (src/site/report/
 * paced_body.ts) with `no-store`, so every page load fetches all it needs as
 * a first visit would; the server logs every response, those a worker makes
 * (DuckDB-wasm's) included, and each page's bytes are the responses served
 * while it loaded, pages being opened one at a time.
 */
import type { Page } from "playwright-core";
import { launchChromium } from "../../src/site/browser.ts";
import { type ServedEntry, serveSite } from "../../src/site/static_server.ts";
import { fmtBytes } from "../../src/site/report/format.ts";

/** 20 Mbit/s in bytes per second. */
export const LINK_BYTES_PER_SECOND = 20e6 / 8;

/** DuckDB-wasm's files: the engine, counted apart from a page's own bytes. */
export function isEngine(path: string): boolean {
  return /\/_npm\/@duckdb\/duckdb-wasm@|\/_observablehq\/stdlib\/duckdb\./.test(path);
}

/** One page's figures. */
export interface PageFigures {
  /** Site path of the page (`/leaderboard`). */
  page: string;
  /** Bytes served for it besides the engine, and the engine's. */
  bytes: number;
  engineBytes: number;
  /** Milliseconds from navigation to the first number drawn from data; null if none was. */
  firstNumberMs: number | null;
  /** Responses with status ≥ 400. */
  failed: string[];
  /** Data files (`_file/…`) served for it. */
  dataFiles: number;
  /** Cell errors, page errors and console errors, one line each. */
  problems: string[];
}

/**
 * The first number drawn from data: the first digit in a cell's output
 * (Framework renders each cell's output in an `.observablehq` element;
 * the page's prose around them is static text, not data), as page time.
 */
const FIRST_NUMBER = `(() => {
  for (const el of document.querySelectorAll("main .observablehq")) {
    if (el.querySelector("observablehq-loading")) continue;
    if (/[0-9]/.test(el.textContent)) return performance.now();
  }
  return false;
})()`;

/**
 * Open each of `paths` of the built site in `dir` (served under `base`) one
 * after another through a paced link, and measure it (see the module
 * comment). `after(page, path)` may act on a page once measured (the SQL
 * console's first query); its bytes are reported as `<path> (after)`.
 */
export async function measurePages(
  dir: string,
  base: string,
  paths: readonly string[],
  after?: (page: Page, path: string) => Promise<boolean>,
): Promise<PageFigures[]> {
  const log: ServedEntry[] = [];
  const server = serveSite(dir, {
    base,
    bytesPerSecond: LINK_BYTES_PER_SECOND,
    noStore: true,
    onServed: (e) => log.push(e),
  });
  const browser = await launchChromium();
  const figures: PageFigures[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    let problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    const settled = async () => {
      await page.waitForFunction("!document.querySelector('observablehq-loading')", null, {
        timeout: 120_000,
      });
      await page.waitForLoadState("networkidle", { timeout: 120_000 });
    };
    // Everything served from `from` on, in figures.
    const tally = async (name: string, from: number, firstNumberMs: number | null) => {
      for (const e of await page.locator(".observablehq--error").all()) {
        problems.push(`cell error: ${await e.innerText()}`);
      }
      const entries = log.slice(from);
      const sum = (f: (e: ServedEntry) => boolean) =>
        entries.filter(f).reduce((n, e) => n + e.bytes, 0);
      figures.push({
        page: name,
        bytes: sum((e) => !isEngine(e.path)),
        engineBytes: sum((e) => isEngine(e.path)),
        firstNumberMs,
        failed: entries.filter((e) => e.status >= 400).map((e) => `${e.status} ${e.path}`),
        dataFiles: entries.filter((e) => e.path.includes("/_file/")).length,
        problems,
      });
      problems = [];
    };
    for (const path of paths) {
      const from = log.length;
      problems = [];
      await page.goto(server.url + path);
      let firstNumberMs: number | null = null;
      try {
        const handle = await page.waitForFunction(FIRST_NUMBER, null, {
          timeout: 60_000,
          polling: "raf",
        });
        firstNumberMs = await handle.jsonValue() as number;
      } catch {
        firstNumberMs = null; // reported as "none"; the caller's check fails
      }
      await settled();
      await tally(path, from, firstNumberMs);
      if (after) {
        const more = log.length;
        if (await after(page, path)) {
          await settled();
          await tally(`${path} (after)`, more, null);
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return figures;
}

/** The figures as a Markdown table, one line per page. */
export function figuresTable(run: string, figures: readonly PageFigures[]): string {
  const lines = [
    "| run | page | bytes besides engine | engine bytes | first number |",
    "| --- | --- | ---: | ---: | ---: |",
  ];
  for (const f of figures) {
    const first = f.firstNumberMs == null ? "–" : `${(f.firstNumberMs / 1000).toFixed(2)} s`;
    lines.push(
      `| ${run} | ${f.page} | ${fmtBytes(f.bytes)} | ${fmtBytes(f.engineBytes)} | ${first} |`,
    );
  }
  return lines.join("\n");
}

/** A megabyte, as the budget counts (10^6 bytes). */
export const MB = 1e6;
/** Bytes a page may fetch besides the engine: the SQL console's, before its first query. */
const BUDGET: Record<string, number> = { "/sql": 5 * MB };
const DEFAULT_BUDGET = 2 * MB;
const FIRST_NUMBER_MS = 3000;

/**
 * What breaks the budget, one line each: no page other than the SQL console
 * fetches more than 2 MB besides the DuckDB-wasm engine (the console 5 MB
 * before its first query), and every page shows its first number from data
 * within 3 s, loads a data file, fails no request and logs no error.
 */
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
    for (const p of f.problems) problems.push(`${f.page}: ${p}`);
    if (f.dataFiles === 0) problems.push(`${f.page}: loaded no data file`);
  }
  return problems;
}
