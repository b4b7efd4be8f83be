/** The report's figures: one Vega-Lite spec builder each (see vl_spec.ts). */
export * from "./vl_spec.ts";
export * from "./leaderboard_figures.ts";
export * from "./gap_figures.ts";
export * from "./other_figures.ts";
