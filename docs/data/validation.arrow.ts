// Optional: the oracle's gate counts; an empty table when the run has none.
import { streamTable } from "../../loaders/table_stream.ts";
import { VALIDATION_FALLBACK } from "../../loaders/optional_tables.ts";
await streamTable("validation", VALIDATION_FALLBACK);
