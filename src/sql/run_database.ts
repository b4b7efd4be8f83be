import { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { basename, join, resolve } from "node:path";
import { parquetDir } from "../io/paths.ts";

/**
 * An in-memory DuckDB with one view per table of a run.
 *
 * Why node-api over Parquet: `@duckdb/node-api` reads Parquet with no
 * extension download (the reader is built in), but reading Arrow IPC needs
 * the `arrow` extension, which DuckDB fetches from the network. Every stage
 * writes a Parquet copy beside its Arrow stream (`writeTable`), so SQL from
 * the command line reads those; the browser (DuckDB-wasm) reads the Arrow
 * streams. Both see the same columns and rows.
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

/** Open the run's tables in `dir` (default `out/parquet/`) as views named after their files. */
export async function openRunDatabase(dir: string = parquetDir()): Promise<RunDatabase> {
  let files: string[];
  try {
    files = [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && e.name.endsWith(".parquet"))
      .map((e) => e.name)
      .sort();
  } catch {
    files = [];
  }
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const tables: string[] = [];
  for (const file of files) {
    const name = basename(file, ".parquet");
    const path = resolve(join(dir, file)).replaceAll("'", "''");
    await connection.run(`CREATE VIEW "${name}" AS SELECT * FROM read_parquet('${path}')`);
    tables.push(name);
  }
  return {
    connection,
    tables,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
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
