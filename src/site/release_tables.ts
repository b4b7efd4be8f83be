import type { TableSpec } from "../io/arrow_table.ts";
import { TABLE_CATALOG } from "../tables/catalog.ts";

/**
 * The tables only a release run writes (its oracle and compare stages),
 * with the spec of the empty table a loader writes on any other run, so
 * the pages' release sections find no rows and stay hidden instead of
 * failing the build. From the table catalog.
 */
export const RELEASE_TABLES: Record<string, TableSpec> = Object.fromEntries(
  TABLE_CATALOG.filter((e) => e.releaseOnly).map((e) => [e.name, e.spec]),
);
