/**
 * The SQL console's schema as JSON on stdout: each table's columns with
 * DuckDB's name for their type, read from the Arrow schemas at build time,
 * and the tables' total size, so the console shows both before a visitor
 * has loaded DuckDB-wasm or any table.
 *
 *   deno run -A src/site/site_schema.ts > sql_schema.json
 */
import * as arrow from "apache-arrow";
import { duckdbType } from "./duckdb_type.ts";
import { siteTableBytes } from "./site_tables.ts";
import { writeAll } from "./stdout.ts";

/** The tables the SQL console loads, in the order its schema lists them. */
export const SQL_CONSOLE_TABLES = [
  "tasks",
  "rejects",
  "mutants",
  "executions",
  "execution_times",
  "limit_margins",
  "queries",
  "corpus",
  "rankings",
  "per_query",
  "metrics",
  "pairwise",
  "breakdowns",
  "validation",
] as const;

/** One column of the schema table. */
export interface SchemaColumn {
  table_name: string;
  column_name: string;
  data_type: string;
}

/** Every console table's columns and the tables' bytes together. */
export async function siteSchema(): Promise<{ bytes: number; columns: SchemaColumn[] }> {
  const columns: SchemaColumn[] = [];
  let bytes = 0;
  for (const table of SQL_CONSOLE_TABLES) {
    const ipc = await siteTableBytes(table);
    bytes += ipc.length;
    for (const field of arrow.tableFromIPC(ipc).schema.fields) {
      columns.push({
        table_name: table,
        column_name: field.name,
        data_type: duckdbType(field.type),
      });
    }
  }
  return { bytes, columns };
}

if (import.meta.main) {
  await writeAll(new TextEncoder().encode(JSON.stringify(await siteSchema())));
}
