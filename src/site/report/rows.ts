/**
 * Plain row objects from a query result (an Arrow table from DuckDB-wasm or
 * any iterable of rows): BIGINT values become numbers when they fit (counts
 * come back as BigInt, which charts and arithmetic reject), Arrow lists
 * become arrays. Rows with a `toJSON` (Arrow's row proxies) are unwrapped.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(plainRows([{ n: 3n, ids: ["a"] }]), [{ n: 3, ids: ["a"] }]);
 * ```
 */
export function plainRows(result: Iterable<unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const row of result) {
    const obj = typeof (row as { toJSON?: unknown }).toJSON === "function"
      ? (row as { toJSON(): Record<string, unknown> }).toJSON()
      : row as Record<string, unknown>;
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(obj)) plain[key] = plainValue(value);
    out.push(plain);
  }
  return out;
}

/** One value made plain (see {@link plainRows}). */
export function plainValue(v: unknown): unknown {
  if (typeof v === "bigint") {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(v)
      : v.toString();
  }
  if (v !== null && typeof v === "object" && !(v instanceof Date)) {
    if (Array.isArray(v)) return v.map(plainValue);
    const iterable = v as { toArray?: () => unknown; [Symbol.iterator]?: unknown };
    if (typeof iterable.toArray === "function" && typeof iterable[Symbol.iterator] === "function") {
      return Array.from(v as Iterable<unknown>, plainValue);
    }
  }
  return v;
}

/** Number of pages of `size` rows (at least 1). */
export function pageCount(rows: number, size: number): number {
  return Math.max(1, Math.ceil(rows / size));
}

/** Rows of 1-based page `page` (clamped to the last page). */
export function pageSlice<T>(rows: readonly T[], page: number, size: number): T[] {
  const p = Math.min(Math.max(1, Math.floor(page)), pageCount(rows.length, size));
  return rows.slice((p - 1) * size, p * size);
}
