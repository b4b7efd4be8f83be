import type { BreakdownRow } from "../../src/tables/schema.ts";

/** One cell of the per-domain heatmap: a config's exec@k on one domain's queries. */
export interface DomainCell {
  domain: string;
  config: string;
  value: number;
  ci_low: number;
  ci_high: number;
  n: number;
}

/** What the page draws: the cells, and the order of the heatmap's rows and columns. */
export interface DomainHeatmap {
  cells: DomainCell[];
  /** Hardest domain first (lowest exec@k averaged over configs), then by name. */
  domains: string[];
  /** Best config first (highest exec@k averaged over domains), then by name. */
  configs: string[];
}

/**
 * Shape the stats stage's `breakdowns` rows into a domain × config heatmap of
 * exec@k. Pure, so a unit test reaches it; the page only queries and draws.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const row = { config: "bm25", group_by: "domain", metric: "exec", k: 1 };
 * const ci = { ci_low: 0, ci_high: 1, n: 9 };
 * const { domains, configs } = domainHeatmap([
 *   { ...row, ...ci, group: "math", value: 0.5 },
 *   { ...row, ...ci, group: "strings", value: 0.2 },
 *   { ...row, ...ci, config: "use", group: "math", value: 0.9 },
 * ], 1);
 * deepStrictEqual(domains, ["strings", "math"]); // hardest first
 * deepStrictEqual(configs, ["use", "bm25"]); // best first
 * ```
 */
export function domainHeatmap(rows: Iterable<BreakdownRow>, k = 1): DomainHeatmap {
  const cells: DomainCell[] = [];
  for (const r of rows) {
    if (r.group_by !== "domain" || r.metric !== "exec" || r.k !== k) continue;
    const { group: domain, config, value, ci_low, ci_high, n } = r;
    cells.push({ domain, config, value, ci_low, ci_high, n });
  }
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
