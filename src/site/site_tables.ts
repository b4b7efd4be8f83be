/**
 * Every table the site serves, by the name pages and SQL give it, with how
 * its bytes are made. From the table catalog (src/tables/catalog.ts): each
 * table the catalog does not hide, as the run wrote it, or an empty table of
 * its spec when the run may lack it (`optional`), with the rows of the tables
 * that add to it appended (`into`: rankings and per_query hold the reranked
 * configs and the leaderboard entries); then the views made for pages alone
 * ({@link SITE_VIEWS}). A new catalog table is a site table with no further
 * line here, and the SQL console's ({@link consoleTables}).
 *
 * @module
 */
import { TABLE_CATALOG } from "../tables/catalog.ts";
import { perQuerySubset } from "./per_query_subset.ts";
import { snippetOutcomesStream } from "./snippet_outcomes.ts";
import { tableBytes } from "./table_bytes.ts";
import { unionBytes } from "./union_bytes.ts";

/**
 * Tables made for pages from the run's tables, not written by a stage, so
 * neither in the catalog nor in the SQL console: every query's margin (the
 * Functional gap page) and every pool snippet's test outcomes (the Explorer).
 */
export const SITE_VIEWS: Readonly<Record<string, () => Promise<Uint8Array>>> = {
  margins: () => perQuerySubset(["margin"]),
  outcomes: () => snippetOutcomesStream(),
};

/**
 * The catalog's tables the site serves under their own names, in catalog
 * order: what the SQL console loads and lists.
 *
 * @example
 * ```ts
 * import { ok } from "node:assert/strict";
 * const tables = consoleTables();
 * ok(tables.includes("metrics") && tables.includes("rerank_rankings"));
 * ok(!tables.includes("rerank_per_query")); // its rows are in per_query
 * ```
 */
export function consoleTables(): string[] {
  return TABLE_CATALOG.filter((e) => !e.site.hidden).map((e) => e.name);
}

/** Every table name the site serves: the console's tables, then the views. */
export function siteTableNames(): string[] {
  return [...consoleTables(), ...Object.keys(SITE_VIEWS)];
}

/** The Arrow stream of site table `name` (see the module comment). */
export function siteTableBytes(name: string): Promise<Uint8Array> {
  const view = SITE_VIEWS[name];
  if (view) return view();
  const entry = TABLE_CATALOG.find((e) => e.name === name && !e.site.hidden);
  if (!entry) return Promise.reject(new Error(`${name}: not a table of the site`));
  const extras = TABLE_CATALOG.filter((e) => e.site.into === name).map((e) => e.name);
  if (extras.length) return unionBytes(name, extras);
  return tableBytes(name, entry.site.optional ? entry.spec : undefined);
}
