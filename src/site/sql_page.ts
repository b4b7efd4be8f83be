/**
 * The SQL console page: every table of the run (the catalog's tables the
 * site serves, src/site/site_tables.ts) loaded into DuckDB-wasm on the first
 * query, with each table's columns listed before any is loaded. Made from
 * the catalog when the site is built (the page loader `docs/sql.md.ts`), so
 * a new table reaches the console with no edit here; for a site of several
 * runs (src/site/site_runs.ts) it holds every run's tables.
 *
 * @module
 */
import { consoleTables } from "./site_tables.ts";

/** A run of a site of several runs: its name is its URL folder and SQL schema. */
export interface ConsoleRun {
  name: string;
}

/**
 * The console's Markdown. With no `runs`, over the one run whose data is in
 * `./data/`; with runs, over every run's `./<run>/data/`: the first run's
 * tables under their own names, as in a one-run site, and each run's in a
 * schema named after it (`release.metrics`), views made once DuckDB-wasm has
 * loaded the tables on the first query.
 *
 * @example
 * ```ts
 * import { ok } from "node:assert/strict";
 * ok(sqlPage().includes('metrics: FileAttachment("./data/metrics.arrow"),'));
 * ok(sqlPage([{ name: "a" }, { name: "b" }]).includes("CREATE VIEW b.metrics"));
 * ```
 */
export function sqlPage(runs: readonly ConsoleRun[] = [], tables = consoleTables()): string {
  const [primary] = runs;
  const dir = (run?: ConsoleRun) => run ? `./${run.name}/data` : "./data";
  const local = (run: ConsoleRun, t: string) => run === primary ? t : `${run.name}__${t}`;
  const attachments = (runs.length ? runs : [undefined]).flatMap((run) =>
    tables.map((t) => `  ${run ? local(run, t) : t}: FileAttachment("${dir(run)}/${t}.arrow"),`)
  );
  const views = runs.flatMap((run) => [
    `CREATE SCHEMA IF NOT EXISTS ${run.name}`,
    ...tables.map((t) => `CREATE VIEW ${run.name}.${t} AS SELECT * FROM main.${local(run, t)}`),
  ]);
  const database = runs.length
    ? `// DuckDB-wasm and every run's tables load when the first query runs, not before.
const tables = {
${attachments.join("\n")}
};
const database = R.onFirstCall(async () => {
  const { DuckDBClient } = await import("npm:@observablehq/duckdb");
  const db = await DuckDBClient.of(tables);
  // One schema per run (views over the tables just loaded).
  for (const statement of ${JSON.stringify(views, null, 2).replaceAll("\n", "\n  ")}) {
    await db.query(statement);
  }
  return db;
});
`
    : `// DuckDB-wasm and every table load when the first query runs, not before.
const tables = {
${attachments.join("\n")}
};
const database = R.onFirstCall(async () => {
  const { DuckDBClient } = await import("npm:@observablehq/duckdb");
  return DuckDBClient.of(tables);
});
`;
  const schema = runs.length
    ? `const schemas = [${
      runs.map((r) => `await FileAttachment("${dir(r)}/sql_schema.json").json()`).join(", ")
    }];
const schema = { bytes: schemas.reduce((n, s) => n + s.bytes, 0), columns: schemas[0].columns };
`
    : `const schema = await FileAttachment("./data/sql_schema.json").json();
`;
  const intro = runs.length
    ? `\n\n<p data-testid="sql-runs">This console holds every run of the site: each run's
tables in a schema named after it (${
      runs.map((r) => `<code>${r.name}.metrics</code>`).join(", ")
    }, …), and the first run's (<code>${primary.name}</code>) also under their plain names,
so <code>SELECT * FROM metrics</code> reads ${primary.name}'s.</p>`
    : "";
  const report = `FileAttachment("${dir(primary)}/report.js")`;
  return `---
title: SQL
---

<!-- deno-fmt-ignore-file -->

# SQL over every table${intro}

Every table of this run is loaded into DuckDB in your browser (DuckDB-wasm, reading the Arrow
streams the pipeline wrote); nothing is sent anywhere. The same SQL runs from the command line:
\`execret sql "SELECT …"\` (or \`make sql Q="…"\`) over the Parquet copies in \`out/parquet/\`. Write a
query and press **Run** (or Ctrl+Enter), or start from an example. Note that \`both\` (a pairwise
column) and \`group\` (in breakdowns) are SQL keywords: quote them as \`"both"\`, \`"group"\`.

\`\`\`js
const R = await import(await ${report}.url());
${database}\`\`\`

\`\`\`js
const editor = Inputs.textarea({
  label: "SQL",
  value: R.EXAMPLE_QUERIES[0].sql,
  rows: 7,
  submit: "Run",
  monospace: true,
  width: Math.min(width, 900),
});
// Nothing runs until the visitor presses Run or picks an example: only then do DuckDB-wasm and
// the tables load. (This listener is added before view()'s, so it has run when the query cell does.)
editor.addEventListener("input", () => editor.dataset.ran = "1");
// The example shown is a query too: Run works before any edit (Inputs enables it only after one).
editor.querySelector("button[type=submit]").disabled = false;
const query = view(editor);
\`\`\`

\`\`\`js
display(html\`<div class="examples">Examples: \${
  R.EXAMPLE_QUERIES.map((ex) => {
    const button = html\`<button type="button" data-example="\${ex.title}">\${ex.title}</button>\`;
    button.onclick = () => {
      editor.value = ex.sql;
      editor.dispatchEvent(new Event("input", { bubbles: true }));
    };
    return button;
  })
}</div>\`);
\`\`\`

\`\`\`js
const result = editor.dataset.ran
  ? await database().then((db) => db.query(query)).then(
    (table) => ({ rows: R.plainRows(table), error: null }),
    (error) => ({ rows: [], error: String(error?.message ?? error) }),
  )
  : null;
\`\`\`

\`\`\`js
const pageSize = 100;
const pages = R.pageCount(result?.rows.length ?? 0, pageSize);
const page = view(Inputs.range([1, pages], { step: 1, value: 1, label: \`Page (of \${pages})\` }));
\`\`\`

\`\`\`js
display(
  !result ? html\`<p class="muted" data-testid="sql-idle">Press <strong>Run</strong> to load DuckDB-wasm
    and this run's tables (\${R.fmtBytes(schema.bytes)}), then run the query.</p>\` :
  result.error ? html\`<p class="error" data-testid="sql-error">\${result.error}</p>\` : html\`
    <div
      data-testid="sql-result"><p class="muted" data-testid="sql-count">\${result.rows
        .length} rows</p>\${Inputs.table(R.pageSlice(result.rows, page, pageSize), {
          rows: pageSize,
        })}</div>
  \`,
);
\`\`\`

## Schema

\`\`\`js
// Every table's columns, read from the tables' Arrow schemas when the site was built.
${schema}const tableNames = [...new Set(schema.columns.map((d) => d.table_name))];
\`\`\`

\`\`\`js
const shown = view(Inputs.select(["all tables", ...tableNames], { label: "Table" }));
\`\`\`

\`\`\`js
display(
  html\`<div data-testid="schema">\${
    Inputs.table(schema.columns.filter((d) => shown === "all tables" || d.table_name === shown), {
      rows: 30,
    })
  }</div>\`,
);
\`\`\`

<style>
.examples { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; margin: 0.5rem 0; }
.error { color: var(--theme-red); font-family: var(--monospace); }
</style>
`;
}
