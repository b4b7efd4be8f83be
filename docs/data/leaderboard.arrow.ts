import { streamTable } from "../../loaders/table_stream.ts";
import { LEADERBOARD } from "../../src/tables/board.ts";
await streamTable("leaderboard", LEADERBOARD);
