// per_query with the reranked configs' rows (rerank_per_query) appended.
import { streamUnion } from "../../src/site/reranked_union.ts";
await streamUnion("per_query", ["rerank_per_query", "board_per_query"]);
