/**
 * The browser session the site test (site_test.ts) checks pages in: the
 * built site served on loopback under a sub-path as GitHub Pages serves a
 * project site, headless Chromium with one context for every page, and what
 * every page's check records: cell errors, raw values, cut-short text,
 * overlapping labels, links and requests outside the site, the data files
 * each page loaded.
 *
 * @module
 */
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../src/site/browser.ts";
import { serveSite } from "../../src/site/static_server.ts";
import { overlappingLabels, truncatedCells } from "./_layout_checks.ts";
import { RAW_VALUE, rawValueLines } from "./raw_values.ts";
import { onSite, pagesAhead, reusedTabs } from "./pages_ahead.ts";

// Generous: on a busy 2-core CI box DuckDB-wasm and the charts can take a while.
export const WAIT = { timeout: 60_000 };
/** Where GitHub Pages puts a project site; a link or fetch by absolute path misses it. */
const BASE = "/execret-kit/";

/** Cell texts of the first Inputs.table inside `scope` (header row excluded). */
export async function tableRows(page: Page, scope: string): Promise<string[][]> {
  await page.locator(`${scope} table tbody tr`).first().waitFor(WAIT);
  return await page.locator(`${scope} table tbody tr`).evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent!.trim()))
  );
}

/** The session: its pages, what their checks found, and how to end it. */
export interface SiteSession {
  context: BrowserContext;
  /** The page at `path`, loaded ahead in the order given to {@link siteSession}. */
  open(path: string): Promise<Page>;
  /** Once every cell has displayed: no cell error, no raw null/undefined/NaN in the text. */
  noCellErrors(page: Page, path: string): Promise<void>;
  problems: string[];
  requests: string[];
  /** Per page: the data files (`_file/…`) it loaded. */
  dataLoaded: Map<string, string[]>;
  /** The pages whose check ran. */
  checked: Set<string>;
  close(): Promise<void>;
}

/** Serve the built site in `siteDir` and open a browser on it, pages loading ahead in `order`. */
export async function siteSession(siteDir: string, order: string[]): Promise<SiteSession> {
  const server = serveSite(siteDir, { base: BASE });
  const origin = new URL(server.url).origin;
  const browser = await launchChromium();
  // One context for every page: they share its HTTP cache, so DuckDB-wasm's
  // 35 MB and the site's modules are fetched once (the site's ten pages took
  // 31–34 s in a context each, 22 s in one).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  /** Per page: the data files (`_file/…`) it loaded, and whether the raw-value check ran. */
  const dataLoaded = new Map<string, string[]>();
  const checked = new Set<string>();
  const load = reusedTabs(context, server.url, {
    problem: (path, text) => problems.push(`${path}: ${text}`),
    request: (path, url) => {
      requests.push(url);
      if (!onSite(url, server.url)) problems.push(`${path}: external request ${url}`);
    },
    response: (path, url) => {
      if (url.startsWith(`${server.url}/_file/`)) {
        dataLoaded.set(path, [...(dataLoaded.get(path) ?? []), url]);
      }
    },
  });
  // The pages in the order the steps check them, each loading while the
  // step before it runs (pages_ahead.ts); each page is recorded from its
  // first request, whenever that is.
  const open = pagesAhead(order, load);
  /** Once every cell has displayed: no cell error, no raw null/undefined/NaN in the text. */
  const noCellErrors = async (page: Page, path: string) => {
    await page.waitForFunction("!document.querySelector('observablehq-loading')", null, WAIT);
    for (const e of await page.locator(".observablehq--error").all()) {
      problems.push(`${path}: cell error: ${await e.innerText()}`);
    }
    for (const line of await rawValueLines(page)) {
      problems.push(`${path}: raw ${line.match(RAW_VALUE)![0]} in "${line.slice(0, 200)}"`);
    }
    // At 1280 px no header or cell text is cut short, and no chart label covers another.
    for (const cut of await truncatedCells(page)) problems.push(`${path}: cut short ${cut}`);
    for (const o of await overlappingLabels(page)) problems.push(`${path}: labels overlap ${o}`);
    // Framework writes page links relative, so they stay under the base wherever it is.
    const hrefs = await page.evaluate(
      `[...document.querySelectorAll("a[href]")].map((a) => a.href)`,
    ) as string[];
    for (const href of hrefs) {
      if (href.startsWith(origin) && !href.startsWith(`${server.url}/`)) {
        problems.push(`${path}: link outside the site ${href}`);
      }
    }
    checked.add(path);
  };
  const close = async () => {
    await browser.close();
    await server.close();
  };
  return { context, open, noCellErrors, problems, requests, dataLoaded, checked, close };
}
