import type { Page } from "playwright-core";

/**
 * Open the site's pages one ahead: opening a page of `order` also starts
 * loading the next one, so its load (mostly Chromium compiling DuckDB-wasm and
 * the page's cells querying it) overlaps the checks of the page before.
 * Each page is loaded once, by `load`; a load that fails is reported by the
 * step that opens that page.
 */
export function pagesAhead(
  order: readonly string[],
  load: (path: string) => Promise<Page>,
): (path: string) => Promise<Page> {
  const loading = new Map<string, Promise<Page>>();
  const start = (path: string): Promise<Page> => {
    let page = loading.get(path);
    if (!page) {
      page = load(path);
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
