// The rerank stage's table; an empty one when the run has none (a run from before the stage).
import { streamTable } from "../../src/site/table_stream.ts";
import { TEST_SPLIT } from "../../src/tables/rerank.ts";
await streamTable("test_split", TEST_SPLIT);
