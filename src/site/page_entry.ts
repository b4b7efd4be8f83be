/**
 * One page of the site as its entry in the page list (src/site/pages.ts):
 * what the sidebar shows, where the page is, and the queries its data file
 * is made of. A page with queries of its own may export its entry from its
 * module in src/site/report/, beside the queries.
 *
 * @module
 */
import type { PageParam } from "./report/page_sql.ts";

/** Runs one query over the build's database and returns plain rows. */
export type RunQuery = (sql: string, params?: PageParam[]) => Promise<Record<string, unknown>[]>;

/** A query and, when it has parameters, every parameter list the page may pass. */
export interface PageQuery {
  sql: string;
  params?: (run: RunQuery) => Promise<PageParam[][]>;
}

/**
 * A page's build-time data, the file `data/page_<id>.json`
 * (src/site/page_data.ts): the site tables its queries read
 * (src/site/site_tables.ts), and the queries.
 */
export interface PageQueries {
  id: string;
  tables: string[];
  queries: (string | PageQuery)[];
}

/** One page of the site. */
export interface PageEntry {
  /** Its name in the sidebar. */
  name: string;
  /** Its URL path; the page is `docs/<path>.md` (`docs/index.md` for `/`). */
  path: string;
  /** Its queries, run when the site is built (none: the page reads no page data). */
  data?: PageQueries;
  /**
   * Queries also run at build time but written to a file of their own
   * (`page_<id>.json`), which the page fetches only once a visitor asks for
   * more than its opening view: its first view stays small whatever the
   * run's size, and a later choice needs no DuckDB-wasm.
   */
  more?: PageQueries;
}
