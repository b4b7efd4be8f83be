// Release runs only: an empty table of the same columns on any other run.
import { streamTable } from "../../src/site/table_stream.ts";
import { RELEASE_TABLES } from "../../src/site/release_tables.ts";
await streamTable("oracle_disagreements", RELEASE_TABLES.oracle_disagreements);
