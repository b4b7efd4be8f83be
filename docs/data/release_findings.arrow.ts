// Release runs only: an empty table of the same columns on any other run.
import { streamTable } from "../../loaders/table_stream.ts";
import { RELEASE_TABLES } from "../../loaders/release_tables.ts";
await streamTable("release_findings", RELEASE_TABLES.release_findings);
