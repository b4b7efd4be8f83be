import { streamTable } from "../../src/site/table_stream.ts";
import { EXECUTION_TIMES } from "../../src/tables/schema.ts";
// Optional: a run imported from elsewhere may carry outcomes without timings.
await streamTable("execution_times", EXECUTION_TIMES);
