/**
 * Screenshot every page of the built site (`make site` first) into
 * out/site-shots/<page>.png at 1280 px and <page>@390.png at a phone's 390 px,
 * so a person can look at a run's report, and at how it reads on a phone,
 * without serving it: `make site-shots`. A site of several runs (`make site
 * RUNS=…`) is shot page by page of every run.
 *
 * Serves out/site (or EXECRET_SITE_OUT) on loopback and drives Debian's
 * Chromium; a page counts as drawn when the network is idle and its content
 * has stopped changing (DuckDB queries and charts finish after the load). A
 * page that does not settle is still captured, with a warning, so one slow
 * page cannot stop the rest.
 */
import { join } from "node:path";
import config from "../observablehq.config.ts";
import type { Page } from "playwright-core";
import { launchChromium } from "../src/site/browser.ts";
import { serveSite } from "../src/site/static_server.ts";
import { outDir } from "../src/io/paths.ts";
import { stageOf } from "../src/site/site_runs.ts";

/** The widths shot: a desktop's, and a phone's (390 px, an iPhone's CSS width). */
export const SHOT_WIDTHS = [1280, 390] as const;

/** A page of the site: its sidebar name and path. */
export interface SitePage {
  name: string;
  path: string;
}

/**
 * Page paths of the site built in `siteDir`, in sidebar order: those of the
 * staged config a site of several runs was built from, else the config's.
 */
export async function sitePages(siteDir?: string): Promise<SitePage[]> {
  if (siteDir) {
    const staged = join(stageOf(siteDir), "observablehq.config.js");
    try {
      Deno.statSync(staged);
    } catch {
      return config.pages;
    }
    const { default: c } = await import(`file://${staged}`);
    const out: SitePage[] = [];
    const walk = (pages: { name: string; path?: string; pages?: unknown[] }[]) => {
      for (const p of pages) {
        if (p.path) out.push({ name: p.name, path: p.path });
        if (p.pages) walk(p.pages as { name: string }[]);
      }
    };
    walk(c.pages);
    return out;
  }
  return config.pages;
}

/** File name of a page's screenshot: "/" → "overview.png", at 390 px "overview@390.png". */
export function shotName(page: SitePage, width = 1280): string {
  const path = page.path.replace(/^\/|\/$/g, "");
  const slug = path === "" ? "overview" : path.replaceAll("/", "_");
  return width === 1280 ? `${slug}.png` : `${slug}@${width}.png`;
}

/** Wait until the page's main content is unchanged for 2 s (at most 90 s); false on timeout. */
async function settle(page: Page): Promise<boolean> {
  await page.waitForLoadState("networkidle", { timeout: 90_000 }).catch(() => {});
  const deadline = Date.now() + 90_000;
  let last = "";
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const now = await page.evaluate("document.querySelector('main')?.innerHTML ?? ''") as string;
    if (now !== last) [last, stableSince] = [now, Date.now()];
    else if (Date.now() - stableSince >= 2000) return true;
    await page.waitForTimeout(250);
  }
  return false;
}

/** Take the screenshots; resolves to the written paths. */
export async function siteShots(siteDir: string, shotsDir: string): Promise<string[]> {
  try {
    Deno.statSync(join(siteDir, "index.html"));
  } catch {
    throw new Error(`${siteDir}/index.html not found: build the site first (make site)`);
  }
  await Deno.mkdir(shotsDir, { recursive: true });
  const server = serveSite(siteDir);
  const browser = await launchChromium();
  const written: string[] = [];
  try {
    // One context per width would end Chromium in one process (launchChromium): resize instead.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      for (const p of await sitePages(siteDir)) {
        await page.goto(server.url + p.path);
        if (!(await settle(page))) {
          console.error(`${p.name}: still changing after 90 s; captured as is`);
        }
        const path = join(shotsDir, shotName(p, width));
        await page.screenshot({ path, fullPage: true });
        written.push(path);
        console.log(`${p.name} at ${width} px: ${path}`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return written;
}

if (import.meta.main) {
  const site = Deno.env.get("EXECRET_SITE_OUT") ?? join(outDir(), "site");
  await siteShots(site, join(outDir(), "site-shots"));
}
