import type { BrowserContext, Page, Request } from "playwright-core";

/**
 * Open the site's pages one ahead: opening a page of `order` also starts
 * loading the next one, so its load (mostly Chromium compiling DuckDB-wasm and
 * the page's cells querying it) overlaps the checks of the page before.
 * Each page is loaded once, by `load`, in tab `i % 2` for the `i`-th page of
 * `order` (tab 2 for a page not in it): the page after next reuses the tab of
 * the page before, whose step has ended by then (steps run one at a time and
 * open their pages in `order`), so steps must not close their page. A load
 * that fails is reported by the step that opens that page.
 */
export function pagesAhead(
  order: readonly string[],
  load: (path: string, tab: number) => Promise<Page>,
): (path: string) => Promise<Page> {
  const loading = new Map<string, Promise<Page>>();
  const start = (path: string): Promise<Page> => {
    let page = loading.get(path);
    if (!page) {
      const i = order.indexOf(path);
      page = load(path, i < 0 ? 2 : i % 2);
      page.catch(() => {}); // its step awaits it and reports a failure
      loading.set(path, page);
    }
    return page;
  };
  return (path) => {
    const page = start(path);
    const next = order[order.indexOf(path) + 1];
    if (next !== undefined) start(next);
    return page;
  };
}

/**
 * Whether a page's request stays on the site served at `site` (its URL):
 * under it, a blob URL of its origin (which names only the origin, not the
 * path), or a data URL.
 */
export function onSite(url: string, site: string): boolean {
  return url.startsWith(site + "/") || url.startsWith(`blob:${new URL(site).origin}/`) ||
    url.startsWith("data:");
}

/** What a tab reports, each with the site path of the page it came from. */
export interface TabEvents {
  problem(path: string, text: string): void;
  request?(path: string, url: string): void;
  response?(path: string, url: string): void;
}

/**
 * Tabs of `context` for {@link pagesAhead}'s loads, each made once and then
 * navigated from page to page: a new tab per page cost Chromium ~1 CPU-s more
 * each (the site's eleven page loads: 47–50 CPU-s in one tab, 58–70 in a tab
 * each). Console and page errors, failed requests and HTTP errors go to
 * `events.problem` under the path of the page that made them; a request of
 * the page before that the navigation cut short is not a failure.
 */
export function reusedTabs(
  context: BrowserContext,
  url: string,
  events: TabEvents,
): (path: string, tab: number) => Promise<Page> {
  const tabs = new Map<number, Promise<Page>>();
  const shown = new WeakMap<Page, string>();
  const madeOn = new WeakMap<Request, string>();
  const newTab = async () => {
    const page = await context.newPage();
    const here = () => shown.get(page)!;
    const of = (r: Request) => madeOn.get(r) ?? here();
    page.on("console", (m) => {
      if (m.type() === "error") events.problem(here(), `console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => events.problem(here(), `page error: ${e.message}`));
    page.on("request", (r) => {
      madeOn.set(r, here());
      events.request?.(here(), r.url());
    });
    page.on("requestfailed", (r) => {
      const cut = of(r) !== here() && /ERR_ABORTED/.test(r.failure()?.errorText ?? "");
      if (!cut) events.problem(of(r), `failed request ${r.url()}`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) events.problem(of(r.request()), `HTTP ${r.status()} ${r.url()}`);
      else events.response?.(of(r.request()), r.url());
    });
    return page;
  };
  return async (path, tab) => {
    if (!tabs.has(tab)) tabs.set(tab, newTab());
    const page = await tabs.get(tab)!;
    shown.set(page, path);
    await page.goto(url + path);
    return page;
  };
}
