import { streamTable } from "../../loaders/table_stream.ts";
await streamTable("per_query");
