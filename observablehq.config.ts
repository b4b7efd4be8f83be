/**
 * Observable Framework configuration of the report site (root `docs/`).
 *
 * Built by `src/site/build_site.ts`, which fills Framework's npm cache from
 * node_modules first and runs the build with the network denied, so every
 * setting here must work offline: no remote stylesheets (the default loads
 * Google Fonts), DuckDB extensions off (they are fetched from
 * extensions.duckdb.org; Arrow streams need neither json nor parquet).
 */
import { PAGES } from "./src/site/pages.ts";

// As src/site/build_site.ts says: EXECRET_SITE_OUT, else the run's folder's site/.
const outputDir = Deno.env.get("EXECRET_SITE_OUT") ??
  `${Deno.env.get("EXECRET_OUT") ?? "out"}/site`;

/**
 * Every page's tables size their columns to their content and scroll
 * sideways when wider than the page, instead of cutting text short with an
 * ellipsis (Inputs.table lays out up to 12 columns "fixed", in equal shares
 * of the width); prose in a cell (`.wrap`) wraps instead. A figure wider
 * than the page (on a phone: src/site/report/chart_width.ts) scrolls sideways too.
 */
const TABLE_STYLE = `<style>
form[class*="-table"] table { table-layout: auto !important; }
.chart, .observablehq:has(> svg), .observablehq:has(> figure) { overflow-x: auto; }
form[class*="-table"] td .wrap { white-space: normal; min-width: 16em; max-width: 32em; }
.figure-files { font-size: 12px; color: var(--theme-foreground-muted); margin-top: 0.25rem; }
</style>`;

export default {
  title: "ExecRetrieval Kit",
  root: "docs",
  output: outputDir,
  // The one page list (src/site/pages.ts): a page is its Markdown in docs/ plus its entry there.
  pages: PAGES.map(({ name, path }) => ({ name, path })),
  // Data loaders are Deno programs; they read the run's tables (EXECRET_OUT
  // or out/) and may compute a missing one through the pipeline, which is why
  // they get full permissions while Framework itself runs without the network.
  interpreters: { ".ts": [Deno.execPath(), "run", "-A", "--cached-only"] },
  duckdb: { extensions: { json: null, parquet: null } },
  globalStylesheets: [],
  search: false,
  // An empty icon, so browsers do not request /favicon.ico (a 404 in every test).
  head: `<link rel="icon" href="data:,">${TABLE_STYLE}`,
  footer: "ExecRetrieval Kit — every number on these pages is read from this run's tables.",
};
