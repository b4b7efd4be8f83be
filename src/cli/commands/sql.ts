import { type Command, UserError } from "../command.ts";

/** `execret sql`: run sql (duckdb) over every table in out/tables. */
export const sqlCommand: Command = {
  name: "sql",
  summary: "Run SQL (DuckDB) over every table in out/tables",
  help: `usage: execret sql [options]

Run SQL (DuckDB) over every table in out/tables. Not implemented yet.`,
  run() {
    return Promise.reject(new UserError("not implemented yet"));
  },
};
