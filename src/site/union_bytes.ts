/**
 * A site table with the rows of the tables that add to it appended (`into`
 * in src/tables/catalog.ts: the reranked configs' and the leaderboard
 * entries' rankings and per_query, the same columns), so every page shows
 * reranked configs and entries as configs. A run without those stages gives
 * the base table unchanged.
 */
import * as arrow from "apache-arrow";
import { siteTable } from "./table_source.ts";

/**
 * The Arrow stream of table `name` followed by the rows of each table of
 * `extras` (when the run has it and its columns are the same). `get` is
 * the table source (tests pass their own).
 */
export async function unionBytes(
  name: string,
  extras: string | readonly string[],
  get: (name: string) => Promise<Uint8Array> = siteTable,
): Promise<Uint8Array> {
  const base = await get(name);
  const a = arrow.tableFromIPC(base);
  const columns = (t: arrow.Table) => t.schema.fields.map((f) => `${f.name}:${f.type}`).join(",");
  const batches = [...a.batches];
  for (const extra of typeof extras === "string" ? [extras] : extras) {
    let more: Uint8Array;
    try {
      more = await get(extra);
    } catch (e) {
      console.error(`${extra}: ${(e as Error).message}; ${name} without its rows`);
      continue;
    }
    const b = arrow.tableFromIPC(more);
    if (b.numRows === 0) continue;
    if (columns(a) !== columns(b)) {
      throw new Error(`${extra}: columns differ from ${name}'s (${columns(b)} vs ${columns(a)})`);
    }
    batches.push(...b.batches.map((x) => new arrow.RecordBatch(a.schema, x.data)));
  }
  if (batches.length === a.batches.length) return base;
  return arrow.tableToIPC(new arrow.Table(a.schema, batches), "stream");
}
