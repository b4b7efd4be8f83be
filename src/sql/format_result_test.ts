import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { cellText, formatCsv, formatJson, formatTable } from "./format_result.ts";

const result = {
  columns: ["config", "k", "value", "ids"],
  rows: [
    { config: "bm25", k: 1, value: 0.25, ids: ["a", "b"] },
    { config: "use, large", k: 10, value: null, ids: [] },
  ],
};

Deno.test("formatTable aligns numbers right and text left", () => {
  assertEquals(
    formatTable(result),
    [
      "config       k  value  ids",
      "----------  --  -----  ------",
      "bm25         1   0.25  [a, b]",
      "use, large  10   NULL  []",
      "(2 rows)",
    ].join("\n"),
  );
});

Deno.test("formatCsv quotes fields with commas and leaves nulls empty", () => {
  assertEquals(formatCsv(result), 'config,k,value,ids\nbm25,1,0.25,"[a, b]"\n"use, large",10,,[]');
});

Deno.test("formatJson and cellText", () => {
  assertEquals(JSON.parse(formatJson(result)), result.rows);
  assertEquals([cellText(null), cellText(true), cellText({ a: 1 })], ["NULL", "true", '{"a":1}']);
});
