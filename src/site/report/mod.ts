/**
 * Everything the report pages use besides Framework's built-ins: SQL, number
 * formats, diff highlighting, pivots and the SQL console's examples. Bundled
 * for the browser by src/site/report_bundle.ts.
 */
export * from "./format.ts";
export * from "./diff.ts";
export * from "./queries.ts";
export * from "./examples.ts";
export * from "./pivot.ts";
export * from "./rows.ts";
export * from "./headline.ts";
export * from "./paper_comparison_view.ts";
export * from "./release_summary.ts";
export * from "./release_queries.ts";
export * from "./release_audit.ts";
export * from "./closing_the_gap.ts";
export * from "./your_models.ts";
export * from "./page_sql.ts";
export * from "./chart_width.ts";
export * from "./figures/mod.ts";
