// rankings with the reranked configs' rows (rerank_rankings) appended.
import { streamUnion } from "../../src/site/reranked_union.ts";
await streamUnion("rankings", ["rerank_rankings", "board_rankings"]);
