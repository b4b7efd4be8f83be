/**
 * Screenshot every page of the built site (`make site` first) into
 * out/site-shots/<page>.png, so a person can look at a run's report without
 * serving it: `make site-shots`.
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
import { launchChromium } from "../src/report/browser.ts";
import { serveSite } from "../src/report/static_server.ts";
import { outDir } from "../src/io/paths.ts";

/** Page paths of the site, in sidebar order. */
export function sitePages(): { name: string; path: string }[] {
  return config.pages;
}

/** File name of a page's screenshot: "/" → "overview.png". */
export function shotName(page: { name: string; path: string }): string {
  const slug = page.path === "/" ? "overview" : page.path.replace(/^\//, "").replaceAll("/", "_");
  return `${slug}.png`;
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
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const p of sitePages()) {
      await page.goto(server.url + p.path);
      if (!(await settle(page))) {
        console.error(`${p.name}: still changing after 90 s; captured as is`);
      }
      const path = join(shotsDir, shotName(p));
      await page.screenshot({ path, fullPage: true });
      written.push(path);
      console.log(`${p.name}: ${path}`);
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
