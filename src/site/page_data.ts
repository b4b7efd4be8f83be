/**
 * A page's build-time data (`data/page_<id>.json`): every query of its entry
 * in src/site/pages.ts, run at build time in DuckDB (node) over the site's
 * tables, so the page draws its first view from a few kilobytes instead of
 * waiting for DuckDB-wasm and the tables (src/site/report/page_sql.ts reads
 * it back).
 *
 * A build makes every page's data in one process (src/site/prefill_site_data.ts),
 * so the database and each table in it are made once for all pages.
 */
import { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { join } from "node:path";
import { toParquet } from "../io/arrow_table.ts";
import type { PageQueries, RunQuery } from "./page_entry.ts";
import { type PageData, type PageParam, pageResult, paramsKey } from "./report/page_sql.ts";
import { plainRows } from "./report/rows.ts";
import { siteTableBytes } from "./site_tables.ts";

let connection: Promise<DuckDBConnection> | undefined;
const loaded = new Map<string, Promise<void>>();

/** The in-memory database every page's queries run in (one per process). */
function database(): Promise<DuckDBConnection> {
  return connection ??= DuckDBInstance.create(":memory:").then((db) => db.connect());
}

/**
 * Load site table `name` into the database, once. DuckDB node reads Parquet
 * with no extension (Arrow IPC needs one from the network), so the stream
 * goes through a Parquet file that is removed once its rows are in memory.
 */
function loadTable(name: string): Promise<void> {
  let done = loaded.get(name);
  if (!done) {
    done = (async () => {
      const db = await database();
      const dir = await Deno.makeTempDir({ prefix: "execret-page-data-" });
      try {
        const file = join(dir, `${name}.parquet`);
        await Deno.writeFile(file, toParquet(await siteTableBytes(name)));
        await db.run(`CREATE TABLE "${name}" AS SELECT * FROM read_parquet('${file}')`);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    })();
    loaded.set(name, done);
  }
  return done;
}

/** Every query of a page's entry (`spec`), run over its tables, as {@link PageData}. */
export async function pageData(spec: PageQueries): Promise<PageData> {
  const page = spec.id;
  for (const table of spec.tables) await loadTable(table);
  const db = await database();
  const run: RunQuery = async (sql, params = []) => {
    const reader = await db.runAndReadAll(sql, params.length ? params : undefined);
    return plainRows(reader.getRowObjectsJS());
  };
  const data: PageData = {};
  for (const query of spec.queries) {
    const { sql, params } = typeof query === "string" ? { sql: query, params: undefined } : query;
    const lists: PageParam[][] = params ? await params(run) : [[]];
    const results: PageData[string] = {};
    for (const list of lists) {
      let reader;
      try {
        reader = await db.runAndReadAll(sql, list.length ? list : undefined);
      } catch (e) {
        const head = sql.trim().split("\n")[0];
        throw new Error(`page data ${page}: "${head}" ${paramsKey(list)}: ${(e as Error).message}`);
      }
      results[paramsKey(list)] = pageResult(
        reader.columnNames(),
        plainRows(reader.getRowObjectsJS()),
      );
    }
    data[sql] = results;
  }
  return data;
}

/** JSON text of a page's data: NaN and ±Infinity (not JSON) become null. */
export function pageDataJson(data: PageData): string {
  return JSON.stringify(data, (_k, v) => typeof v === "number" && !Number.isFinite(v) ? null : v);
}
