import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { inLengthOrder } from "./length_order.ts";

Deno.test("inLengthOrder hands texts over shortest first and returns results in input order", async () => {
  let seen: string[] = [];
  const out = await inLengthOrder(["ccc", "a", "bb", "d"], (sorted) => {
    seen = sorted;
    return Promise.resolve(sorted.map((t) => t.toUpperCase()));
  });
  assertEquals(seen, ["a", "d", "bb", "ccc"]);
  assertEquals(out, ["CCC", "A", "BB", "D"]);
});
