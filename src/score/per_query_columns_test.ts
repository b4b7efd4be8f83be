import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { tableFromRows, toIpcStream } from "../io/arrow_table.ts";
import { PER_QUERY } from "../tables/schema.ts";
import { appendPerQuery, perQueryColumns, perQueryTable } from "./per_query_columns.ts";

Deno.test("per_query built from columns is byte-identical to tableFromRows", () => {
  const rows = [];
  for (let q = 0; q < 50; q++) {
    for (const metric of ["exec", "outrank:off_by_one", "ünïcode"]) {
      rows.push({
        config: q % 2 ? "bm25" : "use",
        query_id: `mbpp/${q}`,
        source: "mbpp",
        domain: "string_processing",
        metric,
        k: q % 4,
        value: q / 7,
      });
    }
  }
  const cols = perQueryColumns();
  appendPerQuery(cols, rows);
  const meta = { tie_break: "x" };
  assertEquals(
    toIpcStream(perQueryTable(cols, meta)),
    toIpcStream(tableFromRows(rows, PER_QUERY, meta)),
  );
});
