import { tablePath } from "../io/paths.ts";
import { ensureTable } from "../pipeline/ensure_table.ts";

/**
 * Where the loaders get a table. Normally `ensureTable`, which first makes
 * the stage that writes it current (computing it when missing or stale).
 * With `EXECRET_SITE_READ_ONLY=1` the table is read as it is, and a missing
 * one is an error: for showing a run that did not come from this checkout's
 * pipeline — the tests' fixture run, or a run copied from elsewhere — which
 * has no stage stamps and must not be recomputed.
 */
export function siteTable(name: string): Promise<Uint8Array> {
  if (Deno.env.get("EXECRET_SITE_READ_ONLY") === "1") return readTableAsIs(name);
  return ensureTable(name);
}

/** The table's Arrow stream as written, or a clear error when there is none. */
export async function readTableAsIs(name: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(tablePath(name));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`${tablePath(name)}: table not found (EXECRET_SITE_READ_ONLY=1)`);
    }
    throw e;
  }
}
