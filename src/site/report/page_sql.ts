/**
 * Pages draw from results computed at build time. A page's queries run in
 * DuckDB (node) when the site is built (src/site/page_data.ts), and the page
 * gets their rows as one small JSON file; {@link pageSql} turns that file
 * back into the `sql` function the page calls, so the page's code reads as
 * it would over a live database but its first view waits for no engine.
 * A query the build did not run (a query id the Explorer was not built
 * with) goes to `fallback`, a database the page opens only then.
 *
 * @module
 */

/** A parameter of a page query (`$1`, `$2`, …). */
export type PageParam = string | number | boolean | null;

/** One query's rows, column-wise names once and the values row by row. */
export interface PageResult {
  columns: string[];
  rows: unknown[][];
}

/** Results by SQL text, then by {@link paramsKey} of the parameters. */
export type PageData = Record<string, Record<string, PageResult>>;

/** The key of a parameter list within a query's results. */
export function paramsKey(params: readonly PageParam[]): string {
  return JSON.stringify(params);
}

/** The SQL text of a tagged-template call (`sql\`…\`` or `sql([text], …)`). */
function sqlText(strings: readonly string[]): string {
  return strings.join("?");
}

/** Rows as objects from a {@link PageResult}. */
export function resultRows(result: PageResult): Record<string, unknown>[] {
  return result.rows.map((r) => Object.fromEntries(result.columns.map((c, i) => [c, r[i]])));
}

/** A {@link PageResult} from row objects (all with the same keys as `columns`). */
export function pageResult(columns: string[], rows: Record<string, unknown>[]): PageResult {
  return { columns, rows: rows.map((r) => columns.map((c) => r[c] ?? null)) };
}

/** How a query the build did not run is answered (a database opened on demand). */
export type SqlFallback = (
  sql: string,
  params: PageParam[],
) => Promise<Iterable<unknown>>;

/**
 * The page's `sql`: `sql([R.X_SQL], k)` and `` sql`SELECT …` `` answer from
 * `data` with plain row objects; a query or parameter list not in it goes to
 * `fallback`, or fails naming the query.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const sql = pageSql({ "SELECT k FROM t": { "[]": { columns: ["k"], rows: [[1], [3]] } } });
 * deepStrictEqual(await sql(["SELECT k FROM t"]), [{ k: 1 }, { k: 3 }]);
 * ```
 */
export function pageSql(
  data: PageData,
  fallback?: SqlFallback,
): (strings: readonly string[], ...params: PageParam[]) => Promise<Iterable<unknown>> {
  return (strings, ...params) => {
    const text = sqlText(strings);
    const result = data[text]?.[paramsKey(params)];
    if (result) return Promise.resolve(resultRows(result));
    if (fallback) return fallback(text, params);
    const head = text.trim().split("\n")[0].slice(0, 80);
    return Promise.reject(
      new Error(`page data has no result for "${head}" with ${paramsKey(params)}`),
    );
  };
}

/** `make()` once, on the first call; every call gets the same promise. */
export function onFirstCall<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => made ??= make();
}
