/**
 * A pipeline table's bytes as the site serves them: its Arrow IPC stream,
 * or, for a table a run may lack (`optional` in src/tables/catalog.ts), an
 * empty table of its spec, so a page shows "none recorded" instead of
 * failing the build.
 */
import { siteTable } from "./table_source.ts";
import { tableFromRows, type TableSpec, toIpcStream } from "../io/arrow_table.ts";

/**
 * The bytes of pipeline table `name`; with `optionalSpec`, an empty table of
 * that spec when the run cannot provide it. `get` is the table source
 * (`siteTable`: `ensureTable`, which may compute a missing table, or the
 * file as it is; tests pass their own).
 */
export async function tableBytes(
  name: string,
  optionalSpec?: TableSpec,
  get: (name: string) => Promise<Uint8Array> = siteTable,
): Promise<Uint8Array> {
  try {
    return await get(name);
  } catch (e) {
    if (!optionalSpec) throw e;
    console.error(`${name}: ${(e as Error).message}; writing an empty table`);
    return toIpcStream(tableFromRows([], optionalSpec));
  }
}
