/**
 * Screenshot every page of the built site (`make site` first) into
 * out/site-shots/<page>.png, so a person can look at a run's report without
 * serving it: `make site-shots`.
 *
 * Serves out/site (or EXECRET_SITE_OUT) on loopback and drives Debian's
 * Chromium; a page counts as drawn when the network is idle and Framework
 * shows no loading placeholder (<observablehq-loading>). A page that does not
 * settle is still captured, with a warning, so one slow page cannot stop the rest.
 */
import { join } from "node:path";
import config from "../observablehq.config.ts";
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
      try {
        await page.waitForLoadState("networkidle", { timeout: 30_000 });
        await page.waitForFunction(
          "document.querySelectorAll('observablehq-loading').length === 0",
          undefined,
          { timeout: 30_000 },
        );
      } catch (e) {
        console.error(`${p.name}: did not settle (${(e as Error).message.split("\n")[0]})`);
      }
      await page.waitForTimeout(1500); // DuckDB queries and chart transitions
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
