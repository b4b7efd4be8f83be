import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { tableFromIPC } from "apache-arrow";
import { checkedRowsOf, tableFromRows, toIpcStream } from "../../src/io/arrow_table.ts";
import { perQueryColumns } from "../../src/score/per_query_columns.ts";
import { perQueryMatrix } from "../../src/stats/per_query_matrix.ts";
import { computeStats } from "../../src/stats/stats_stage.ts";
import { BREAKDOWNS } from "../../src/tables/schema.ts";
import { tableBytes } from "../../src/site/table_bytes.ts";
import { domainHeatmap } from "./page_domains.ts";

// exec@1 and exec@3 (0 or 1) per config and query; "strings" is the harder
// domain and "c" the best config, so the orders below follow from the data.
const QUERIES = [
  ["q1", "math"],
  ["q2", "math"],
  ["q3", "math"],
  ["q4", "strings"],
  ["q5", "strings"],
  ["q6", "strings"],
] as const;
const EXEC: Record<string, { 1: number[]; 3: number[] }> = {
  a: { 1: [1, 0, 0, 0, 0, 0], 3: [1, 1, 0, 1, 0, 0] },
  b: { 1: [1, 1, 0, 0, 0, 0], 3: [1, 1, 1, 1, 0, 0] },
  c: { 1: [1, 1, 1, 1, 0, 0], 3: [1, 1, 1, 1, 1, 0] },
};

/** The breakdowns table as the page's data loader streams it, made by the real stats code. */
async function breakdownsAsLoaded() {
  const cols = perQueryColumns();
  for (const [config, byK] of Object.entries(EXEC)) {
    for (const k of [1, 3] as const) {
      QUERIES.forEach(([query_id, domain], i) => {
        cols.config.push(config);
        cols.query_id.push(query_id);
        cols.source.push("builtin");
        cols.domain.push(domain);
        cols.metric.push("exec");
        cols.k.push(k);
        cols.value.push(byK[k][i]);
      });
    }
  }
  const stats = computeStats(perQueryMatrix(cols), { bootstrap: 200, quiet: true });
  const bytes = toIpcStream(tableFromRows(stats.breakdowns, BREAKDOWNS));
  const streamed = await tableBytes("breakdowns", BREAKDOWNS, () => Promise.resolve(bytes));
  return checkedRowsOf(tableFromIPC(streamed), BREAKDOWNS, "breakdowns");
}

/** exec@k of one config on one domain's queries, by hand. */
function handMean(config: string, domain: string, k: 1 | 3): number {
  const values = QUERIES.flatMap(([, d], i) => d === domain ? [EXEC[config][k][i]] : []);
  return values.reduce((s, v) => s + v, 0) / values.length;
}

Deno.test("domain heatmap: exec@k per config and domain from the stats stage's breakdowns", async () => {
  const rows = await breakdownsAsLoaded();
  for (const k of [1, 3] as const) {
    const { cells, domains, configs } = domainHeatmap(rows, k);
    assertEquals(domains, ["strings", "math"]);
    assertEquals(configs, ["c", "b", "a"]);
    assertEquals(cells.map((c) => `${c.domain}/${c.config}`), [
      "strings/c",
      "strings/b",
      "strings/a",
      "math/c",
      "math/b",
      "math/a",
    ]);
    for (const c of cells) {
      ok(
        Math.abs(c.value - handMean(c.config, c.domain, k)) < 1e-12,
        `${c.domain}/${c.config}@${k}`,
      );
      ok(c.ci_low <= c.value && c.value <= c.ci_high, `interval of ${c.domain}/${c.config}@${k}`);
      assertEquals(c.n, 3);
    }
  }
});

Deno.test("domain heatmap: no domain rows at that k draws nothing", async () => {
  const rows = await breakdownsAsLoaded();
  assertEquals(domainHeatmap(rows, 5), { cells: [], domains: [], configs: [] });
});
