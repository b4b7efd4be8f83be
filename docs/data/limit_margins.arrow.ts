import { streamTable } from "../../src/site/table_stream.ts";
import { LIMIT_MARGINS } from "../../src/tables/schema.ts";
await streamTable("limit_margins", LIMIT_MARGINS);
