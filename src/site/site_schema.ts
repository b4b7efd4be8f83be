/**
 * The SQL console's schema (`data/sql_schema.json`): each console table's
 * columns with DuckDB's name for their type, read from the Arrow schemas at
 * build time, and the tables' total size, so the console shows both before a
 * visitor has loaded DuckDB-wasm or any table.
 */
import * as arrow from "apache-arrow";
import { duckdbType } from "./duckdb_type.ts";
import { consoleTables, siteTableBytes } from "./site_tables.ts";

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
  for (const table of consoleTables()) {
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
