import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { tableFromRows, toIpcStream, toParquet } from "../../src/io/arrow_table.ts";
import { perQueryColumns } from "../../src/score/per_query_columns.ts";
import { perQueryMatrix } from "../../src/stats/per_query_matrix.ts";
import { computeStats } from "../../src/stats/stats_stage.ts";
import { openRunDatabase, runSql } from "../../src/sql/run_database.ts";
import { BREAKDOWNS } from "../../src/tables/schema.ts";
import { DOMAIN_CELLS_SQL, type DomainCell, domainHeatmap, DOMAINS_PAGE } from "./page_domains.ts";

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

/**
 * The page's cells at `k`: the stats stage's real `breakdowns` of the data
 * above, queried with the page's own SQL in DuckDB, as the build does.
 */
async function cellsAt(k: number): Promise<DomainCell[]> {
  const cols = perQueryColumns();
  for (const [config, byK] of Object.entries(EXEC)) {
    for (const kk of [1, 3] as const) {
      QUERIES.forEach(([query_id, domain], i) => {
        cols.config.push(config);
        cols.query_id.push(query_id);
        cols.source.push("builtin");
        cols.domain.push(domain);
        cols.metric.push("exec");
        cols.k.push(kk);
        cols.value.push(byK[kk][i]);
      });
    }
  }
  const stats = computeStats(perQueryMatrix(cols), { bootstrap: 200, quiet: true });
  const dir = await Deno.makeTempDir({ prefix: "execret-domains-" });
  try {
    const ipc = toIpcStream(tableFromRows(stats.breakdowns, BREAKDOWNS));
    await Deno.writeFile(join(dir, "breakdowns.parquet"), toParquet(ipc));
    const db = await openRunDatabase(dir, dir);
    try {
      return (await runSql(db, DOMAIN_CELLS_SQL, [k])).rows as DomainCell[];
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** exec@k of one config on one domain's queries, by hand. */
function handMean(config: string, domain: string, k: 1 | 3): number {
  const values = QUERIES.flatMap(([, d], i) => d === domain ? [EXEC[config][k][i]] : []);
  return values.reduce((s, v) => s + v, 0) / values.length;
}

Deno.test("domain heatmap: exec@k per config and domain from the stats stage's breakdowns", async () => {
  for (const k of [1, 3] as const) {
    const { cells, domains, configs } = domainHeatmap(await cellsAt(k));
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
  assertEquals(domainHeatmap(await cellsAt(5)), { cells: [], domains: [], configs: [] });
});

Deno.test("the page's entry asks its data file for the query the page reads", () => {
  assertEquals(DOMAINS_PAGE.data?.id, "domains");
  assertEquals(DOMAINS_PAGE.data?.tables, ["breakdowns"]);
  const [query] = DOMAINS_PAGE.data!.queries;
  assertEquals(typeof query === "string" ? query : query.sql, DOMAIN_CELLS_SQL);
});
