import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM_PATH = Deno.env.get("EXECRET_CHROMIUM") ?? "/usr/bin/chromium";

/**
 * Launch headless Chromium with background networking off, so the only
 * requests it makes are the page's own (which tests record and check), and
 * its renderer, network and GPU services in one process: loading the site's
 * ten pages took 24 CPU-s instead of 33 (measured system-wide: Chromium's
 * helper processes do not count in its parent's CPU time), 17 s instead of 22.
 * In one process Chromium renders the pages of one browser context only: a
 * page of a second context (`browser.newPage()` makes one) ends the browser
 * ("Target page, context or browser has been closed"), so callers open every
 * page in one context.
 * V8 caches a WebAssembly module's compiled code with its HTTP cache entry,
 * by default only once 1 MB of optimized code exists and after a delay; a
 * site page stays well below that, so each page compiled DuckDB-wasm's 35 MB
 * again. Caching
 * from the first optimized function on lets the next page reuse it: with the
 * static server's cache headers, the site test's ten pages took 63–65 CPU-s
 * system-wide instead of 72–77 (either change alone: no gain).
 */
export async function launchChromium(executablePath = CHROMIUM_PATH): Promise<Browser> {
  try {
    return await launchOnce(executablePath);
  } catch (e) {
    // Chromium in one process has died while starting, once in a loaded
    // make test (SIGSEGV before any page; 50 launches under load after
    // it: none). A browser that did not start at all is not retried.
    if (!String(e).includes("has been closed")) throw e;
    console.error("chromium: the browser died while starting; starting it once more");
    return await launchOnce(executablePath);
  }
}

function launchOnce(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--single-process",
      "--js-flags=--wasm-caching-threshold=1 --wasm-caching-timeout-ms=0",
      // Headless Chromium still builds the omnibox's WebUI popup for every
      // tab (its scripts showed in each page's trace): ~10% of the CPU of
      // loading the site's pages (58–60 CPU-s instead of 65–70 for eleven).
      "--disable-features=WebUIOmniboxPopup",
    ],
  });
}
