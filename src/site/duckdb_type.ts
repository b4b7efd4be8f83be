import * as arrow from "apache-arrow";

/**
 * DuckDB's name for the column type an Arrow type becomes when DuckDB reads it.
 *
 * @example
 * ```ts
 * import * as arrow from "apache-arrow";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(duckdbType(new arrow.List(new arrow.Field("item", new arrow.Utf8()))), "VARCHAR[]");
 * ```
 */
export function duckdbType(type: arrow.DataType): string {
  if (arrow.DataType.isList(type)) return `${duckdbType(type.children[0].type)}[]`;
  if (arrow.DataType.isFixedSizeList(type)) {
    return `${duckdbType(type.children[0].type)}[${type.listSize}]`;
  }
  if (arrow.DataType.isDictionary(type)) return duckdbType(type.dictionary);
  if (arrow.DataType.isUtf8(type) || arrow.DataType.isLargeUtf8(type)) return "VARCHAR";
  if (arrow.DataType.isBool(type)) return "BOOLEAN";
  if (arrow.DataType.isInt(type)) {
    const names: Record<number, string> = {
      8: "TINYINT",
      16: "SMALLINT",
      32: "INTEGER",
      64: "BIGINT",
    };
    return `${type.isSigned ? "" : "U"}${names[type.bitWidth]}`;
  }
  if (arrow.DataType.isFloat(type)) {
    return type.precision === arrow.Precision.SINGLE ? "FLOAT" : "DOUBLE";
  }
  if (arrow.DataType.isTimestamp(type)) return "TIMESTAMP";
  if (arrow.DataType.isDate(type)) return "DATE";
  return String(type).toUpperCase();
}
