/**
 * The data loader contract for pipeline tables: write one table's Arrow IPC
 * stream to stdout. Framework runs the `docs/data/<name>.arrow.ts` wrappers
 * (which call {@link streamTable}); run it alone to get the same bytes:
 *
 *   deno run -A src/site/table_stream.ts metrics > metrics.arrow
 *
 * A table the pages treat as optional (the oracle's validation counts) is
 * written as an empty table of its spec when the run has none, so a page shows
 * "none recorded" instead of failing the build.
 */
import { writeAll } from "./stdout.ts";
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

/** Write pipeline table `name` to stdout (see {@link tableBytes}). */
export async function streamTable(name: string, optionalSpec?: TableSpec): Promise<void> {
  await writeAll(await tableBytes(name, optionalSpec));
}

if (import.meta.main) {
  const name = Deno.args[0];
  if (!name) {
    console.error("usage: deno run -A src/site/table_stream.ts <table name>");
    Deno.exit(2);
  }
  await streamTable(name);
}
