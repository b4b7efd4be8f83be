// Release runs only: an empty table of the same columns on any other run.
import { streamTable } from "../../src/site/table_stream.ts";
import { RELEASE_TABLES } from "../../src/site/release_tables.ts";
await streamTable("ranking_agreement", RELEASE_TABLES.ranking_agreement);
