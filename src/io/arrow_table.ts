import * as arrow from "apache-arrow";
import {
  Compression,
  Table as ParquetTable,
  writeParquet,
  WriterPropertiesBuilder,
} from "parquet-wasm";
import { join } from "node:path";
import { atomicWrite } from "./atomic_write.ts";
import { parquetDir, tablePath } from "./paths.ts";

/**
 * Column types the pipeline's tables use. Kept to a few plain types so every
 * reader (DuckDB, DuckDB-wasm, pandas, polars) sees the same thing; strings are
 * plain Utf8, never dictionaries, so the bytes do not depend on value order.
 */
export type ColumnType =
  | "utf8"
  | "int32"
  | "float64"
  | "float32"
  | "bool"
  | "utf8_list"
  | "int32_list"
  | "float64_list"
  | { fixedFloat32: number };

/** A scalar or list column type that may be marked nullable. */
type NamedType = Exclude<ColumnType, object>;

/**
 * A column's type in a spec. A trailing `?` marks a column that may hold
 * nulls (e.g. a canonical's `bug_type`): it changes the row type only, not
 * the Arrow schema, which marks every field nullable as it always has.
 */
export type ColumnSpec = ColumnType | `${NamedType}?`;

/** Column name → type, in the order the columns are written. */
export type TableSpec = Readonly<Record<string, ColumnSpec>>;

/** The JavaScript value a column of type `C` reads as (see {@link rowsOf}). */
export type ValueOf<C> = C extends `${infer T}?` ? ValueOf<T> | null
  : C extends "utf8" ? string
  : C extends "bool" ? boolean
  : C extends "int32" | "float64" | "float32" ? number
  : C extends "utf8_list" ? string[]
  : C extends "int32_list" | "float64_list" ? number[]
  : C extends { fixedFloat32: number } ? Float32Array
  : never;

/** The row type of a table spec, derived column by column. */
export type RowOf<S extends TableSpec> = { -readonly [K in keyof S]: ValueOf<S[K]> };

/**
 * Declare a table spec keeping its literal column types, so that
 * `RowOf<typeof SPEC>` is the row type and no row interface is written by hand.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const POINTS = tableSpec({ id: "utf8", x: "float64", label: "utf8?" });
 * const p: RowOf<typeof POINTS> = { id: "a", x: 1, label: null }; // label: string | null
 * deepStrictEqual(Object.keys(POINTS), Object.keys(p)); // columns in the order written
 * ```
 */
export function tableSpec<const S extends TableSpec>(spec: S): S {
  return spec;
}

/**
 * The columns `names` of `spec`, for a reader that needs only those: it
 * checks (and its rows are typed with) just them.
 */
export function pick<S extends TableSpec, K extends keyof S & string>(
  spec: S,
  ...names: K[]
): Pick<S, K> {
  const out: Partial<Record<K, ColumnSpec>> = {};
  for (const name of names) out[name] = spec[name];
  return out as Pick<S, K>;
}

function baseType(type: ColumnSpec): ColumnType {
  if (typeof type === "string" && type.endsWith("?")) return type.slice(0, -1) as NamedType;
  return type as ColumnType;
}

function arrowType(spec: ColumnSpec): arrow.DataType {
  const type = baseType(spec);
  if (typeof type === "object") {
    return new arrow.FixedSizeList(type.fixedFloat32, new arrow.Field("item", new arrow.Float32()));
  }
  switch (type) {
    case "utf8":
      return new arrow.Utf8();
    case "int32":
      return new arrow.Int32();
    case "float64":
      return new arrow.Float64();
    case "float32":
      return new arrow.Float32();
    case "bool":
      return new arrow.Bool();
    case "utf8_list":
      return new arrow.List(new arrow.Field("item", new arrow.Utf8(), true));
    case "int32_list":
      return new arrow.List(new arrow.Field("item", new arrow.Int32(), true));
    case "float64_list":
      return new arrow.List(new arrow.Field("item", new arrow.Float64(), true));
  }
}

/**
 * Build an Arrow table from row objects typed by the spec (`RowOf<S>`), as
 * {@link writeTable} takes them. The check holds at run time too, for rows
 * whose type was not known: a field not in the spec is an error, so a typo
 * cannot silently drop a column, and a field missing from a row is written
 * as null.
 */
export function tableFromRows<S extends TableSpec>(
  rows: readonly RowOf<S>[],
  spec: S,
  metadata: Record<string, string> = {},
): arrow.Table {
  const plain = rows as readonly Record<string, unknown>[];
  for (const [i, row] of plain.entries()) {
    for (const key of Object.keys(row)) {
      if (!(key in spec)) throw new Error(`row ${i}: column "${key}" is not in the table spec`);
    }
  }
  const vectors: Record<string, arrow.Vector> = {};
  for (const [name, columnType] of Object.entries(spec)) {
    const values = plain.map((row) => row[name] ?? null);
    vectors[name] = arrow.vectorFromArray(values as unknown[], arrowType(columnType));
  }
  const table = new arrow.Table(vectors);
  const schema = new arrow.Schema(table.schema.fields, new Map(Object.entries(metadata)));
  return new arrow.Table(schema, table.batches.map((b) => new arrow.RecordBatch(schema, b.data)));
}

/** Serialise a table as an Arrow IPC stream (the format DuckDB-wasm reads). */
export function toIpcStream(table: arrow.Table): Uint8Array {
  return arrow.tableToIPC(table, "stream");
}

/** Options for {@link writeTable}. */
export interface WriteTableOptions {
  /** Schema metadata (string → string), e.g. provenance. */
  metadata?: Record<string, string>;
  /** Also write a Parquet copy under `out/parquet/` (default true). */
  parquet?: boolean;
  /** Write to this path instead of `out/tables/<name>.arrow`. */
  path?: string;
}

/**
 * Write rows as the pipeline table `name`: an Arrow stream at
 * `out/tables/<name>.arrow` (atomic) plus a Parquet copy. Returns the path.
 * The rows are typed by the spec (`RowOf<S>`), so a row missing a column, or
 * naming one the spec does not have, does not compile.
 */
export async function writeTable<S extends TableSpec>(
  name: string,
  rows: readonly RowOf<S>[],
  spec: S,
  options: WriteTableOptions = {},
): Promise<string> {
  const table = tableFromRows(rows, spec, options.metadata);
  const path = options.path ?? tablePath(name);
  const ipc = toIpcStream(table);
  await atomicWrite(path, ipc);
  const copy = join(parquetDir(), `${name}.parquet`);
  if (options.parquet ?? true) await atomicWrite(copy, toParquet(ipc));
  else if (!options.path) {
    // A copy left by an earlier write would describe other rows under this
    // table's name (SQL reads the copies, and stamps cover them).
    await Deno.remove(copy).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  }
  return path;
}

/**
 * Whole rows of `spec` from rows that give only some columns, the rest null:
 * for tests, fixtures and benchmarks that need a few columns of a table (a
 * stage writes whole rows; test/architecture/typed_reads_test.ts keeps this
 * out of program code). A column the spec does not have is still a compile
 * error, and {@link writeTable} still refuses it.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const POINTS = tableSpec({ id: "utf8", x: "float64", label: "utf8?" });
 * deepStrictEqual(withNulls(POINTS, [{ id: "a" }]), [{ id: "a", x: null, label: null }]);
 * ```
 */
export function withNulls<S extends TableSpec>(
  spec: S,
  rows: readonly Partial<RowOf<S>>[],
): RowOf<S>[] {
  const nulls = Object.fromEntries(Object.keys(spec).map((name) => [name, null]));
  return rows.map((row) => ({ ...nulls, ...row }) as RowOf<S>);
}

/** Convert an Arrow IPC stream to Parquet bytes (zstd). */
export function toParquet(ipcStream: Uint8Array): Uint8Array {
  const props = new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build();
  return writeParquet(ParquetTable.fromIPCStream(ipcStream), props);
}

/** A table file that is not there (its stage has not run, or wrote none in this run). */
export class TableNotFound extends Error {
  constructor(readonly path: string) {
    super(`${path}: table not found (run the stage that writes it first)`);
    this.name = "TableNotFound";
  }
}

/** Read an Arrow stream (or file) table from disk. */
export async function readTable(path: string): Promise<arrow.Table> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new TableNotFound(path);
    throw e;
  }
  return arrow.tableFromIPC(bytes);
}

/**
 * Read a table as plain row objects: list columns become arrays, fixed-size
 * float lists become Float32Array, nulls stay null. Unchecked: for code that
 * inspects arbitrary tables (tests, SQL); a stage reads its inputs with
 * {@link readTableRows} and the table's spec.
 */
export async function readRows<T = Record<string, unknown>>(path: string): Promise<T[]> {
  return rowsOf<T>(await readTable(path));
}

/**
 * Read pipeline table `path` as rows of `spec`, after checking that the
 * file has every column of the spec with the spec's Arrow type (extra
 * columns are allowed and read too). A mismatch is a one-line error naming
 * the file and the column.
 *
 * `readTableRows(tablePath("tasks"), TASKS)` gives `TaskRow[]`.
 */
export async function readTableRows<S extends TableSpec>(
  path: string,
  spec: S,
): Promise<RowOf<S>[]> {
  return checkedRowsOf(await readTable(path), spec, path);
}

/**
 * Rows of an in-memory table as rows of `spec`, checked as
 * {@link readTableRows} does; `where` names the table in errors.
 */
export function checkedRowsOf<S extends TableSpec>(
  table: arrow.Table,
  spec: S,
  where: string,
): RowOf<S>[] {
  checkSchema(table.schema, spec, where);
  return rowsOf<RowOf<S>>(table);
}

/**
 * Throw unless `schema` has every column of `spec` with its Arrow type.
 * Types are compared as Arrow prints them (`Utf8`, `List<Utf8>`,
 * `FixedSizeList[384]<Float32>`), which covers list item and size too.
 */
export function checkSchema(schema: arrow.Schema, spec: TableSpec, where: string): void {
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  for (const [name, type] of Object.entries(spec)) {
    const expected = String(arrowType(type));
    const field = fields.get(name);
    if (!field) throw new Error(`${where}: column "${name}" is missing, expected ${expected}`);
    const got = String(field.type);
    if (got !== expected) {
      throw new Error(`${where}: column "${name}" is ${got}, expected ${expected}`);
    }
  }
}

/** Plain row objects of an in-memory table (see {@link readRows}). */
export function rowsOf<T = Record<string, unknown>>(table: arrow.Table): T[] {
  const names = table.schema.fields.map((f) => f.name);
  const columns = names.map((n) => table.getChild(n)!);
  const fixed = table.schema.fields.map((f) => f.type instanceof arrow.FixedSizeList);
  const out: T[] = new Array(table.numRows);
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) {
      const v = columns[c].get(i);
      row[names[c]] = plain(v, fixed[c]);
    }
    out[i] = row as T;
  }
  return out;
}

function plain(v: unknown, fixed: boolean): unknown {
  if (v instanceof arrow.Vector) {
    return fixed
      ? Float32Array.from(v.toArray() as ArrayLike<number>)
      : Array.from(v as Iterable<unknown>);
  }
  return v;
}
