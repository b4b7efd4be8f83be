import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM_PATH = Deno.env.get("EXECRET_CHROMIUM") ?? "/usr/bin/chromium";

/**
 * Launch headless Chromium with background networking off, so the only
 * requests it makes are the page's own (which tests record and check).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
