// The reranked configs' rankings; an empty table when the run has none (a run from before the stage).
import { streamTable } from "../../src/site/table_stream.ts";
import { RANKINGS } from "../../src/tables/schema.ts";
await streamTable("rerank_rankings", RANKINGS);
