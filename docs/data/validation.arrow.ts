// Optional: the oracle's gate counts; an empty table when the run has none.
import { streamTable } from "../../src/site/table_stream.ts";
import { VALIDATION } from "../../src/tables/schema.ts";
await streamTable("validation", VALIDATION);
