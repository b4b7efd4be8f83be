/**
 * The data loader contract for pipeline tables: write one table's Arrow IPC
 * stream to stdout. Framework runs the `docs/data/<name>.arrow.ts` wrappers
 * (which call {@link streamTable}); run it alone to get the same bytes:
 *
 *   deno run -A loaders/table_stream.ts metrics > metrics.arrow
 *
 * A table the pages treat as optional (the oracle's validation counts) is
 * written as an empty table of its spec when the run has none, so a page shows
 * "none recorded" instead of failing the build.
 */
import { writeAll } from "./_stdout.ts";
import { ensureTable } from "../src/pipeline/ensure_table.ts";
import { tableFromRows, type TableSpec, toIpcStream } from "../src/io/arrow_table.ts";

/** Write pipeline table `name` to stdout; with `optionalSpec`, an empty table when missing. */
export async function streamTable(name: string, optionalSpec?: TableSpec): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = await ensureTable(name);
  } catch (e) {
    if (!optionalSpec) throw e;
    console.error(`${name}: ${(e as Error).message}; writing an empty table`);
    bytes = toIpcStream(tableFromRows([], optionalSpec));
  }
  await writeAll(bytes);
}

if (import.meta.main) {
  const name = Deno.args[0];
  if (!name) {
    console.error("usage: deno run -A loaders/table_stream.ts <table name>");
    Deno.exit(2);
  }
  await streamTable(name);
}
