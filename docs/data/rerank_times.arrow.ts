// The rerank stage's table; an empty one when the run has none (a run from before the stage).
import { streamTable } from "../../src/site/table_stream.ts";
import { RERANK_TIMES } from "../../src/tables/rerank.ts";
await streamTable("rerank_times", RERANK_TIMES);
