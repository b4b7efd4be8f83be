import { streamTable } from "../../src/site/table_stream.ts";
import { BOARD_ENTRIES } from "../../src/tables/board.ts";
await streamTable("board_entries", BOARD_ENTRIES);
