import type { TableSpec } from "../io/arrow_table.ts";

/**
 * `breakdowns.arrow`: every aggregate of `metrics` per source and per domain,
 * with its bootstrap interval (same shared resamples: a group's mean over the
 * drawn queries of that group). Defined here, not in schema.ts, because only
 * the stats stage and the report read it.
 */
export const BREAKDOWNS: TableSpec = {
  config: "utf8",
  group_by: "utf8", // source | domain
  group: "utf8",
  metric: "utf8",
  k: "int32",
  value: "float64",
  ci_low: "float64",
  ci_high: "float64",
  n: "int32",
};
