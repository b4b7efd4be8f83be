/**
 * Rows of per_query for some metrics only, as an Arrow stream, so a page
 * gets e.g. every query's margin (the site table `margins`) without loading
 * the whole per-query table (one row per config × query × metric × k).
 */
import * as arrow from "apache-arrow";
import { checkedRowsOf, tableFromRows, toIpcStream } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { siteTable } from "./table_source.ts";
import { PER_QUERY } from "../tables/schema.ts";

/** Arrow stream bytes of the per_query rows whose metric is one of `metrics`. */
export async function perQuerySubset(metrics: readonly string[]): Promise<Uint8Array> {
  const keep = new Set(metrics);
  const table = arrow.tableFromIPC(await siteTable("per_query"));
  const rows = checkedRowsOf(table, PER_QUERY, tablePath("per_query")).filter((r) =>
    keep.has(r.metric)
  );
  return toIpcStream(tableFromRows(rows, PER_QUERY));
}
