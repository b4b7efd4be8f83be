import type { TableSpec } from "../src/io/arrow_table.ts";

/**
 * Shape of the oracle's `validation` table written when a run has none, so
 * the Benchmark page can say "no gate counts recorded" rather than fail.
 * The real table (long form, one row per gate and source) replaces it.
 */
export const VALIDATION_FALLBACK: TableSpec = { gate: "utf8", source: "utf8", count: "int32" };
