import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { pageCount, pageSlice, plainRows } from "./rows.ts";
import { tableFromRows } from "../../io/arrow_table.ts";

Deno.test("plainRows turns BigInt into numbers and unwraps row proxies", () => {
  assertEquals(plainRows([{ n: 3n, big: 2n ** 60n, s: "x", ids: ["a"] }]), [
    { n: 3, big: "1152921504606846976", s: "x", ids: ["a"] },
  ]);
  const table = tableFromRows([{ a: "x", l: ["p", "q"] }], { a: "utf8", l: "utf8_list" });
  assertEquals(plainRows(table), [{ a: "x", l: ["p", "q"] }]);
});

Deno.test("pageSlice clamps to existing pages", () => {
  const rows = Array.from({ length: 45 }, (_, i) => i);
  assertEquals(pageCount(rows.length, 20), 3);
  assertEquals(pageCount(0, 20), 1);
  assertEquals(pageSlice(rows, 3, 20), [40, 41, 42, 43, 44]);
  assertEquals(pageSlice(rows, 9, 20), [40, 41, 42, 43, 44]);
  assertEquals(pageSlice(rows, 0, 20).length, 20);
});
