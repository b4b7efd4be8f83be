/**
 * The explorer's outcomes table on stdout: every pool snippet's test
 * outcomes under its corpus id (see src/report/snippet_outcomes.ts).
 *
 *   deno run -A loaders/snippet_outcomes.ts > outcomes.arrow
 */
import * as arrow from "apache-arrow";
import { rowsOf, tableFromRows, toIpcStream } from "../src/io/arrow_table.ts";
import { siteTable } from "./_table_source.ts";
import { tableBytes } from "./table_stream.ts";
import { EXECUTION_TIMES } from "../src/tables/schema.ts";
import { SNIPPET_OUTCOMES, snippetOutcomes } from "../src/report/snippet_outcomes.ts";
import { writeAll } from "./_stdout.ts";

/** Arrow stream bytes of the outcomes table. */
export async function snippetOutcomesStream(): Promise<Uint8Array> {
  const rows = async <T>(name: string) => rowsOf<T>(arrow.tableFromIPC(await siteTable(name)));
  const outcomes = snippetOutcomes(
    await rows("tasks"),
    await rows("corpus"),
    await rows("executions"),
    // Timings are optional: a run imported from elsewhere may have none.
    rowsOf(arrow.tableFromIPC(await tableBytes("execution_times", EXECUTION_TIMES))),
  );
  return toIpcStream(tableFromRows(outcomes, SNIPPET_OUTCOMES));
}

if (import.meta.main) await writeAll(await snippetOutcomesStream());
