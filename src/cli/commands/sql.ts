import { type Command, parseFlags } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { parquetDir, tablesDir } from "../../io/paths.ts";
import { openRunDatabase, runSql, statementCount } from "../../sql/run_database.ts";
import { formatCsv, formatJson, formatTable } from "../../sql/format_result.ts";

const FORMATS = ["table", "csv", "json"] as const;

/** `execret sql`: SQL (DuckDB) over every table of the run. */
export const sqlCommand: Command = {
  name: "sql",
  help: `usage: execret sql "<SQL>" [--format table|csv|json] [--unrestricted]

Run one SQL statement with DuckDB over every table of the run. Each table is
named after its file (tasks, rejects, mutants, executions, queries, corpus,
rankings, per_query, metrics, pairwise, validation, ...); \`SHOW TABLES\` lists
them and \`DESCRIBE metrics\` shows a table's columns.

Read-only by default: the tables are loaded into an in-memory database that
then has no access to files, the network or extensions, so a statement can
read the run's tables (and make scratch tables in memory, gone when it ends)
but cannot change a result, read another file, or download anything. One
statement per call: a second one after ";" is refused rather than run unseen.

The tables come from the Parquet copies in out/parquet/ (EXECRET_OUT moves
out/): @duckdb/node-api reads Parquet with no network, while reading the Arrow
IPC streams in out/tables/ would need DuckDB's arrow extension, which it
downloads. A table in out/tables/ without a Parquet copy is converted to one
first. The report site's SQL console (DuckDB-wasm) reads the Arrow streams
instead; both hold the same rows.

options:
  --format table|csv|json   output format (default table: aligned columns)
  --unrestricted            DuckDB's full access (views over the files; COPY TO,
                            ATTACH, reading other files, installing extensions).
                            A file this changes under out/ is seen by the next
                            \`reproduce\` and recomputed, and fails \`execret check\`

examples:
  execret sql "SELECT config, k, value FROM metrics WHERE metric = 'exec' ORDER BY config, k"
  execret sql "SELECT reason, count(*) AS n FROM rejects GROUP BY reason" --format csv
  execret sql --unrestricted "COPY metrics TO 'metrics.csv' (HEADER)"`,
  async run(args) {
    const { values, positionals } = parseFlags(args, {
      format: { type: "string" },
      unrestricted: { type: "boolean" },
    }, true);
    const format = values.format ?? (values.json ? "json" : "table");
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new UserError(`--format must be one of ${FORMATS.join(", ")}, got "${format}"`, 2);
    }
    if (positionals.length !== 1 || positionals[0].trim() === "") {
      throw new UserError('expected one SQL statement, e.g. execret sql "SHOW TABLES"', 2);
    }
    const sql = positionals[0];
    const unrestricted = values.unrestricted ?? false;
    const db = await openRunDatabase(parquetDir(), tablesDir(), { unrestricted });
    try {
      if (db.tables.length === 0) {
        throw new UserError(
          `no tables in ${parquetDir()} or ${tablesDir()}; run \`make reproduce\` first`,
        );
      }
      let result;
      try {
        const statements = await statementCount(db, sql);
        if (statements !== 1) {
          throw new UserError(
            `expected one SQL statement, got ${statements}: run each with its own \`execret sql\``,
            2,
          );
        }
        result = await runSql(db, sql);
      } catch (e) {
        if (e instanceof UserError) throw e;
        // DuckDB's messages span several lines (with a caret); keep the first.
        const message = (e as Error).message.split("\n")[0];
        throw new UserError(
          !unrestricted && /^Permission Error|disabled (by|through) configuration/.test(message)
            ? `${message} (execret sql is read-only; --unrestricted gives DuckDB's full access)`
            : message,
        );
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
