import { type Command, parseFlags, UserError } from "../command.ts";
import { parquetDir, tablesDir } from "../../io/paths.ts";
import { openRunDatabase, runSql } from "../../sql/run_database.ts";
import { formatCsv, formatJson, formatTable } from "../../sql/format_result.ts";

const FORMATS = ["table", "csv", "json"] as const;

/** `execret sql`: SQL (DuckDB) over every table of the run. */
export const sqlCommand: Command = {
  name: "sql",
  summary: "Run SQL (DuckDB) over every table of the run",
  help: `usage: execret sql "<SQL>" [--format table|csv|json]

Run one SQL statement with DuckDB over every table of the run. Each table is a
view named after it (tasks, rejects, mutants, executions, queries, corpus,
rankings, per_query, metrics, pairwise, validation, ...); \`SHOW TABLES\` lists
them and \`DESCRIBE metrics\` shows a table's columns.

The views read the Parquet copies in out/parquet/ (EXECRET_OUT moves out/):
@duckdb/node-api reads Parquet with no network, while reading the Arrow IPC
streams in out/tables/ would need DuckDB's arrow extension, which it downloads.
A table in out/tables/ without a Parquet copy is converted to one first.
The report site's SQL console (DuckDB-wasm) reads the Arrow streams instead;
both hold the same rows.

options:
  --format table|csv|json   output format (default table: aligned columns)

examples:
  execret sql "SELECT config, k, value FROM metrics WHERE metric = 'exec' ORDER BY config, k"
  execret sql "SELECT reason, count(*) AS n FROM rejects GROUP BY reason" --format csv`,
  async run(args) {
    const { values, positionals } = parseFlags(args, { format: { type: "string" } }, true);
    const format = values.format ?? (values.json ? "json" : "table");
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UserError(`--format must be one of ${FORMATS.join(", ")}, got "${format}"`, 2);
    }
    if (positionals.length !== 1 || positionals[0].trim() === "") {
      throw new UserError('expected one SQL statement, e.g. execret sql "SHOW TABLES"', 2);
    }
    const db = await openRunDatabase();
    try {
      if (db.tables.length === 0) {
        throw new UserError(
          `no tables in ${parquetDir()} or ${tablesDir()}; run \`make reproduce\` first`,
        );
      }
      let result;
      try {
        result = await runSql(db, positionals[0]);
      } catch (e) {
        // DuckDB's messages span several lines (with a caret); keep the first.
        throw new UserError((e as Error).message.split("\n")[0]);
      }
      const text = format === "csv"
        ? formatCsv(result)
        : format === "json"
        ? formatJson(result)
        : formatTable(result);
      console.log(text);
      return 0;
    } finally {
      db.close();
    }
  },
};
