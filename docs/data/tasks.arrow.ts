import { streamTable } from "../../loaders/table_stream.ts";
await streamTable("tasks");
