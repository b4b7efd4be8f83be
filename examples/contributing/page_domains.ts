/**
 * A new report page, worked through: exec@1 per domain and config as a
 * heatmap, from the stats stage's `breakdowns` table, hardest domain and best
 * config first. In the kit this file would be `src/site/report/domains.ts`
 * (its imports then `../page_entry.ts` and `../../tables/schema.ts`): every
 * module there reaches the pages' bundle as `R.<name>` with no list to edit.
 * The page itself is `docs/domains.md` (page_domains.md beside this file),
 * and one line `DOMAINS_PAGE,` in `PAGES` (src/site/pages.ts) adds it to the
 * sidebar and to the data files the build makes.
 */
import type { PageEntry } from "../../src/site/page_entry.ts";
import type { BreakdownRow } from "../../src/tables/schema.ts";

/** Every config's exec@k ($1) on each domain's queries, from the stats stage's breakdowns. */
export const DOMAIN_CELLS_SQL = `
SELECT "group" AS domain, config, value, ci_low, ci_high, n
FROM breakdowns WHERE group_by = 'domain' AND metric = 'exec' AND k = $1
ORDER BY domain, config`;

/** One cell of the heatmap: a config's exec@k on one domain's queries. */
export type DomainCell = Pick<BreakdownRow, "config" | "value" | "ci_low" | "ci_high" | "n"> & {
  domain: string;
};

/** What the page draws: the cells, and the order of the heatmap's rows and columns. */
export interface DomainHeatmap {
  cells: DomainCell[];
  /** Hardest domain first (lowest exec@k averaged over configs), then by name. */
  domains: string[];
  /** Best config first (highest exec@k averaged over domains), then by name. */
  configs: string[];
}

/**
 * Order the cells into a domain × config heatmap. Pure, so a unit test
 * reaches it; the page only queries and draws.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const ci = { ci_low: 0, ci_high: 1, n: 9 };
 * const { domains, configs } = domainHeatmap([
 *   { ...ci, config: "bm25", domain: "math", value: 0.5 },
 *   { ...ci, config: "bm25", domain: "strings", value: 0.2 },
 *   { ...ci, config: "use", domain: "math", value: 0.9 },
 * ]);
 * deepStrictEqual(domains, ["strings", "math"]); // hardest first
 * deepStrictEqual(configs, ["use", "bm25"]); // best first
 * ```
 */
export function domainHeatmap(rows: Iterable<DomainCell>): DomainHeatmap {
  const cells = [...rows];
  const byMean = (key: "domain" | "config", sign: 1 | -1) => {
    const sums = new Map<string, [number, number]>();
    for (const c of cells) {
      const [s, m] = sums.get(c[key]) ?? [0, 0];
      sums.set(c[key], [s + c.value, m + 1]);
    }
    const mean = (name: string) => sums.get(name)![0] / sums.get(name)![1];
    return [...sums.keys()].sort((a, b) => sign * (mean(a) - mean(b)) || a.localeCompare(b));
  };
  const domains = byMean("domain", 1), configs = byMean("config", -1);
  cells.sort((a, b) =>
    domains.indexOf(a.domain) - domains.indexOf(b.domain) ||
    configs.indexOf(a.config) - configs.indexOf(b.config)
  );
  return { cells, domains, configs };
}

/** The page's entry: its place in the sidebar and the query its data file holds (k = 1). */
export const DOMAINS_PAGE: PageEntry = {
  name: "Domains",
  path: "/domains",
  data: {
    id: "domains",
    tables: ["breakdowns"],
    queries: [{ sql: DOMAIN_CELLS_SQL, params: () => Promise.resolve([[1]]) }],
  },
};
