/**
 * `rankings` and `per_query` for the site with the reranked configs' rows
 * appended (`rerank_rankings`, `rerank_per_query`: the same columns), so
 * every page shows reranked configs as configs. A run without the rerank
 * stage gives the base table unchanged.
 */
import * as arrow from "apache-arrow";
import { siteTable } from "./_table_source.ts";
import { writeAll } from "./stdout.ts";

/**
 * The Arrow stream of table `name` followed by the rows of `extra` (when the
 * run has it and its columns are the same). `get` is the table source
 * (tests pass their own).
 */
export async function unionBytes(
  name: string,
  extra: string,
  get: (name: string) => Promise<Uint8Array> = siteTable,
): Promise<Uint8Array> {
  const base = await get(name);
  let more: Uint8Array;
  try {
    more = await get(extra);
  } catch (e) {
    console.error(`${extra}: ${(e as Error).message}; ${name} without reranked configs`);
    return base;
  }
  const a = arrow.tableFromIPC(base), b = arrow.tableFromIPC(more);
  if (b.numRows === 0) return base;
  const columns = (t: arrow.Table) => t.schema.fields.map((f) => `${f.name}:${f.type}`).join(",");
  if (columns(a) !== columns(b)) {
    throw new Error(`${extra}: columns differ from ${name}'s (${columns(b)} vs ${columns(a)})`);
  }
  const batches = [...a.batches, ...b.batches.map((x) => new arrow.RecordBatch(a.schema, x.data))];
  return arrow.tableToIPC(new arrow.Table(a.schema, batches), "stream");
}

/** Write the union to stdout (see {@link unionBytes}). */
export async function streamUnion(name: string, extra: string): Promise<void> {
  await writeAll(await unionBytes(name, extra));
}
