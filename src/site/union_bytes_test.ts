import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import * as arrow from "apache-arrow";
import { checkedRowsOf, tableFromRows, toIpcStream } from "../io/arrow_table.ts";
import { PER_QUERY } from "../tables/schema.ts";
import { unionBytes } from "./union_bytes.ts";

const row = (config: string, value: number) => ({
  config,
  query_id: "q",
  source: "builtin",
  domain: "math",
  metric: "exec",
  k: 1,
  value,
});

Deno.test("unionBytes: base rows then the reranked rows; base alone when there are none", async () => {
  const tables: Record<string, Uint8Array> = {
    per_query: toIpcStream(tableFromRows([row("bm25", 0), row("use", 1)], PER_QUERY)),
    rerank_per_query: toIpcStream(tableFromRows([row("bm25+exec", 1)], PER_QUERY)),
    empty: toIpcStream(tableFromRows([], PER_QUERY)),
    other: toIpcStream(tableFromRows([{ x: 1 }], { x: "int32" })),
  };
  const get = (n: string) =>
    tables[n] ? Promise.resolve(tables[n]) : Promise.reject(new Error("table not found"));
  const union = checkedRowsOf(
    arrow.tableFromIPC(await unionBytes("per_query", "rerank_per_query", get)),
    PER_QUERY,
    "union",
  );
  assertEquals(union.map((r) => [r.config, r.value]), [["bm25", 0], ["use", 1], ["bm25+exec", 1]]);
  assertEquals(await unionBytes("per_query", "empty", get), tables.per_query);
  assertEquals(await unionBytes("per_query", "missing", get), tables.per_query);
  await rejects(unionBytes("per_query", "other", get), /columns differ/);
});
