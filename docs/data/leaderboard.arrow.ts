import { streamTable } from "../../src/site/table_stream.ts";
import { LEADERBOARD } from "../../src/tables/board.ts";
await streamTable("leaderboard", LEADERBOARD);
