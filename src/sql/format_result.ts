import type { QueryResult } from "./run_database.ts";

/** Text of one cell: null as NULL, lists as [a, b], objects as JSON. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (Array.isArray(v)) return `[${v.map(cellText).join(", ")}]`;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/**
 * An aligned text table: header, rule, one line per row; numbers right-
 * aligned, text left-aligned; newlines in cells shown as ⏎ so a row stays
 * one line.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(formatTable({ columns: ["a"], rows: [{ a: 1 }] }), "a\n-\n1\n(1 row)");
 * ```
 */
export function formatTable(result: QueryResult): string {
  const { columns, rows } = result;
  const cells = rows.map((r) => columns.map((c) => cellText(r[c]).replaceAll("\n", "⏎")));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const numeric = columns.map((c) =>
    rows.length > 0 && rows.every((r) => r[c] === null || typeof r[c] === "number")
  );
  const pad = (s: string, i: number) => numeric[i] ? s.padStart(widths[i]) : s.padEnd(widths[i]);
  const lines = [
    columns.map((c, i) => pad(c, i)).join("  ").trimEnd(),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...cells.map((row) => row.map((s, i) => pad(s, i)).join("  ").trimEnd()),
    `(${rows.length} ${rows.length === 1 ? "row" : "rows"})`,
  ];
  return lines.join("\n");
}

/** RFC 4180 CSV with a header line. */
export function formatCsv(result: QueryResult): string {
  const quote = (s: string) => /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  const lines = [
    result.columns.map(quote).join(","),
    ...result.rows.map((r) =>
      result.columns.map((c) => r[c] === null || r[c] === undefined ? "" : quote(cellText(r[c])))
        .join(",")
    ),
  ];
  return lines.join("\n");
}

/** JSON array of row objects. */
export function formatJson(result: QueryResult): string {
  return JSON.stringify(result.rows, null, 2);
}
