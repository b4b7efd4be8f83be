import { streamTable } from "../../src/site/table_stream.ts";
await streamTable("pairwise");
