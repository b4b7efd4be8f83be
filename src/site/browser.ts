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
 * Each page that queries DuckDB compiles DuckDB-wasm's 35 MB again (~2.5–3
 * CPU-s of the page's ~5): V8 keeps compiled wasm only beside a response's
 * HTTP cache entry, and DuckDB-wasm 1.29 instantiates from a Response it
 * builds itself (the download piped through a TransformStream, for its
 * progress events), which has none. Flags that make V8 cache sooner
 * (`--wasm-caching-threshold`) therefore changed nothing: the ten pages took
 * 46.6–50.8 CPU-s with them and 45.8–50.6 without (three runs each,
 * 2026-12-02), and no wasm cache entry was ever written.
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
      // Headless Chromium still builds the omnibox's WebUI popup for every
      // tab (its scripts showed in each page's trace): ~10% of the CPU of
      // loading the site's pages (58–60 CPU-s instead of 65–70 for eleven).
      "--disable-features=WebUIOmniboxPopup",
    ],
  });
}
