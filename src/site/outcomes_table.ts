/**
 * The explorer's outcomes table on stdout: every pool snippet's test
 * outcomes under its corpus id (see src/site/snippet_outcomes.ts).
 *
 *   deno run -A src/site/outcomes_table.ts > outcomes.arrow
 */
import * as arrow from "apache-arrow";
import { checkedRowsOf, tableFromRows, type TableSpec, toIpcStream } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { siteTable } from "./table_source.ts";
import { tableBytes } from "./table_stream.ts";
import { CORPUS, EXECUTION_TIMES, EXECUTIONS, TASKS } from "../tables/schema.ts";
import { snippetOutcomes } from "./snippet_outcomes.ts";
import { SNIPPET_OUTCOMES } from "../tables/outcomes.ts";
import { writeAll } from "./stdout.ts";

/** Arrow stream bytes of the outcomes table. */
export async function snippetOutcomesStream(): Promise<Uint8Array> {
  const rows = async <S extends TableSpec>(name: string, spec: S, bytes?: Uint8Array) =>
    checkedRowsOf(arrow.tableFromIPC(bytes ?? await siteTable(name)), spec, tablePath(name));
  const outcomes = snippetOutcomes(
    await rows("tasks", TASKS),
    await rows("corpus", CORPUS),
    await rows("executions", EXECUTIONS),
    // Timings are optional: a run imported from elsewhere may have none.
    await rows(
      "execution_times",
      EXECUTION_TIMES,
      await tableBytes("execution_times", EXECUTION_TIMES),
    ),
  );
  return toIpcStream(tableFromRows(outcomes, SNIPPET_OUTCOMES));
}

if (import.meta.main) await writeAll(await snippetOutcomesStream());
