// Optional: the stats stage's per-source and per-domain aggregates; empty when the run has none.
import { streamTable } from "../../src/site/table_stream.ts";
import { BREAKDOWNS } from "../../src/tables/schema.ts";
await streamTable("breakdowns", BREAKDOWNS);
