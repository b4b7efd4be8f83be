import { tableFromRows, toIpcStream } from "../io/arrow_table.ts";
import { AUDIT } from "./audit_row.ts";
import { releaseTablePath } from "./import_release.ts";

/**
 * The Arrow stream bytes of the release audit table for the report page:
 * `out/release/tables/audit.arrow` when `execret import-release` has run,
 * else an empty table of the audit spec (with a note on stderr), so the
 * site still builds and the page says that no release was audited.
 */
export async function auditStream(): Promise<Uint8Array> {
  const path = releaseTablePath("audit");
  try {
    return await Deno.readFile(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    console.error(`${path}: no audit yet (run execret import-release DIR); writing an empty table`);
    return toIpcStream(tableFromRows([], AUDIT));
  }
}
