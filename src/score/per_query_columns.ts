import * as arrow from "apache-arrow";
import { join } from "node:path";
import { toIpcStream, toParquet } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { parquetDir, tablePath } from "../io/paths.ts";
import type { PerQueryRow } from "../tables/schema.ts";

/**
 * per_query accumulated column by column. With 24 configs it has ~700k rows;
 * building it through row objects and apache-arrow's per-value builders costs
 * seconds and a gigabyte, so its columns are kept as arrays and the Arrow
 * vectors built directly (UTF-8 bytes + offsets). The table is the same as
 * `tableFromRows(rows, PER_QUERY, metadata)` would give (no column has nulls).
 */
export interface PerQueryColumns {
  config: string[];
  query_id: string[];
  source: string[];
  domain: string[];
  metric: string[];
  k: number[];
  value: number[];
}

/** Empty columns. */
export function perQueryColumns(): PerQueryColumns {
  return { config: [], query_id: [], source: [], domain: [], metric: [], k: [], value: [] };
}

/** Append rows. */
export function appendPerQuery(cols: PerQueryColumns, rows: readonly PerQueryRow[]): void {
  for (const r of rows) {
    cols.config.push(r.config);
    cols.query_id.push(r.query_id);
    cols.source.push(r.source);
    cols.domain.push(r.domain);
    cols.metric.push(r.metric);
    cols.k.push(r.k);
    cols.value.push(r.value);
  }
}

const encoder = new TextEncoder();

function utf8Vector(values: readonly string[]): arrow.Vector {
  const offsets = new Int32Array(values.length + 1);
  const cache = new Map<string, Uint8Array>();
  const parts: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== "string") throw new Error(`per_query: row ${i} has a non-string value`);
    let bytes = cache.get(v);
    if (!bytes) {
      bytes = encoder.encode(v);
      if (cache.size < 100_000) cache.set(v, bytes);
    }
    parts.push(bytes);
    at += bytes.length;
    offsets[i + 1] = at;
  }
  const data = new Uint8Array(at);
  let o = 0;
  for (const p of parts) {
    data.set(p, o);
    o += p.length;
  }
  return arrow.makeVector(
    arrow.makeData({
      type: new arrow.Utf8(),
      length: values.length,
      nullCount: 0,
      valueOffsets: offsets,
      data,
    }),
  );
}

/** The per_query Arrow table of the columns, with schema metadata. */
export function perQueryTable(
  cols: PerQueryColumns,
  metadata: Record<string, string>,
): arrow.Table {
  const n = cols.config.length;
  for (const [name, c] of Object.entries(cols)) {
    if (c.length !== n) {
      throw new Error(`per_query: column ${name} has ${c.length} values, expected ${n}`);
    }
  }
  const table = new arrow.Table({
    config: utf8Vector(cols.config),
    query_id: utf8Vector(cols.query_id),
    source: utf8Vector(cols.source),
    domain: utf8Vector(cols.domain),
    metric: utf8Vector(cols.metric),
    k: arrow.makeVector(
      arrow.makeData({
        type: new arrow.Int32(),
        length: n,
        nullCount: 0,
        data: Int32Array.from(cols.k),
      }),
    ),
    value: arrow.makeVector(
      arrow.makeData({
        type: new arrow.Float64(),
        length: n,
        nullCount: 0,
        data: Float64Array.from(cols.value),
      }),
    ),
  });
  const schema = new arrow.Schema(table.schema.fields, new Map(Object.entries(metadata)));
  return new arrow.Table(schema, table.batches.map((b) => new arrow.RecordBatch(schema, b.data)));
}

/** Write `per_query` like writeTable does: Arrow stream (atomic) plus a Parquet copy. */
export async function writePerQuery(
  cols: PerQueryColumns,
  metadata: Record<string, string>,
): Promise<string> {
  const ipc = toIpcStream(perQueryTable(cols, metadata));
  const path = tablePath("per_query");
  await atomicWrite(path, ipc);
  await atomicWrite(join(parquetDir(), "per_query.parquet"), toParquet(ipc));
  return path;
}
