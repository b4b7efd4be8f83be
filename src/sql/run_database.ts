import { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { basename, join, resolve } from "node:path";
import { parquetDir, tablesDir } from "../io/paths.ts";
import { toParquet } from "../io/arrow_table.ts";
import { TABLE_CATALOG } from "../tables/catalog.ts";

/**
 * An in-memory DuckDB with one table (or view) per table of a run.
 *
 * Why node-api over Parquet: `@duckdb/node-api` reads Parquet with no
 * extension download (the reader is built in), but reading Arrow IPC needs
 * the `arrow` extension, which DuckDB fetches from the network. Every stage
 * writes a Parquet copy beside its Arrow stream (`writeTable`), so SQL from
 * the command line reads those; the browser (DuckDB-wasm) reads the Arrow
 * streams. Both see the same columns and rows. A table in out/tables that
 * has no Parquet copy (a stage may skip it) is converted to a temporary
 * Parquet file, so every table of the run is a view.
 */
export interface RunDatabase {
  connection: DuckDBConnection;
  /** View names, sorted. */
  tables: string[];
  close(): void;
}

/** A query's result as plain JS values (BIGINT as number when it fits). */
export interface QueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
}

function listFiles(dir: string, ext: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && e.name.endsWith(ext))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The tables whose rows a table's view also holds, by table: the tables the
 * catalog says add to it (`into`: rankings and per_query hold the reranked
 * configs and the leaderboard entries, as on the site).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(addedRows().rankings, ["rerank_rankings", "board_rankings"]);
 * ```
 */
export function addedRows(): Record<string, string[]> {
  const added: Record<string, string[]> = {};
  for (const e of TABLE_CATALOG) if (e.site.into) (added[e.site.into] ??= []).push(e.name);
  return added;
}

/** Options of {@link openRunDatabase}. */
export interface RunDatabaseOptions {
  /**
   * DuckDB's full access: views straight over the Parquet files, and
   * statements that read or write any file, attach databases and install
   * extensions from the network. Off by default (see {@link openRunDatabase}).
   */
  unrestricted?: boolean;
}

/**
 * Open the run's tables, named after their files: the Parquet copies in
 * `parquet` (default out/parquet/), plus any Arrow table in `tables`
 * (default out/tables/) without one. The `rankings` and `per_query` tables
 * include the reranked configs' and leaderboard entries' rows ({@link addedRows}).
 *
 * By default the tables are loaded into an in-memory database that then
 * loses all access outside itself (DuckDB's `enable_external_access` off,
 * extension autoloading off, the configuration locked): a statement can read
 * the run's tables and create scratch tables in memory, but cannot write,
 * read or attach a file, or fetch or load an extension, so SQL can never
 * change a run's results. `unrestricted` opens views over the files with
 * DuckDB's full access instead.
 */
export async function openRunDatabase(
  parquet: string = parquetDir(),
  tables: string = tablesDir(),
  options: RunDatabaseOptions = {},
): Promise<RunDatabase> {
  const sources = new Map<string, string>();
  for (const file of listFiles(parquet, ".parquet")) {
    sources.set(basename(file, ".parquet"), join(parquet, file));
  }
  let tmp: string | null = null;
  for (const file of listFiles(tables, ".arrow")) {
    const name = basename(file, ".arrow");
    if (sources.has(name)) continue;
    tmp ??= await Deno.makeTempDir({ prefix: "execret-sql-" });
    const path = join(tmp, `${name}.parquet`);
    await Deno.writeFile(path, toParquet(await Deno.readFile(join(tables, file))));
    sources.set(name, path);
  }
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
    if (tmp) Deno.removeSync(tmp, { recursive: true });
  };
  const names = [...sources.keys()].sort();
  const read = (name: string) =>
    `SELECT * FROM read_parquet('${resolve(sources.get(name)!).replaceAll("'", "''")}')`;
  const kind = options.unrestricted ? "VIEW" : "TABLE";
  try {
    const added = addedRows();
    for (const name of names) {
      // rankings and per_query hold the reranked configs and leaderboard entries too (their
      // rows are also in their own tables), so every query over configs sees them.
      const extras = (added[name] ?? []).filter((e) => sources.has(e));
      const sql = [name, ...extras].map(read).join(" UNION ALL BY NAME ");
      await connection.run(`CREATE ${kind} "${name}" AS ${sql}`);
    }
    if (!options.unrestricted) {
      for (const setting of LOCKDOWN) await connection.run(setting);
    }
  } catch (e) {
    close();
    throw e;
  }
  return { connection, tables: names, close };
}

/**
 * What a restricted database runs once its tables are loaded: no file
 * system or network access, no extension loading, and a locked
 * configuration, so no statement can undo the rest.
 */
const LOCKDOWN = [
  "SET enable_external_access = false",
  "SET autoinstall_known_extensions = false",
  "SET autoload_known_extensions = false",
  "SET allow_community_extensions = false",
  "SET lock_configuration = true",
];

/** The number of statements in `sql` (DuckDB's own parser). */
export async function statementCount(db: RunDatabase, sql: string): Promise<number> {
  return (await db.connection.extractStatements(sql)).count;
}

/** Run one SQL statement (with `$1`-style parameters) and return plain rows. */
export async function runSql(
  db: RunDatabase,
  sql: string,
  params: (string | number | boolean | null)[] = [],
): Promise<QueryResult> {
  const reader = await db.connection.runAndReadAll(sql, params.length ? params : undefined);
  const columns = reader.columnNames();
  const rows = reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const c of columns) out[c] = plainValue(row[c]);
    return out;
  });
  return { columns, rows };
}

function plainValue(v: unknown): unknown {
  if (typeof v === "bigint") {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(v)
      : v.toString();
  }
  if (Array.isArray(v)) return v.map(plainValue);
  return v;
}
