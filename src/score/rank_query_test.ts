import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type Pool, rankQuery } from "./rank_query.ts";
import { fnv1a32, tieKey } from "./tie_break.ts";

const pool = (ids: string[]): Pool => ({ ids, hashes: Uint32Array.from(ids, (id) => fnv1a32(id)) });

Deno.test("rankQuery orders by score and reports ranks and ties", () => {
  const p = pool(["a", "b", "c", "d", "e"]);
  const r = rankQuery(new Float32Array([0.1, 0.9, 0.5, 0.5, 0.3]), p, fnv1a32("q"), 3);
  assertEquals(r.top[0], 1);
  assertEquals(new Set(r.top.slice(1)), new Set([2, 3])); // the tied pair, in hash order
  assertEquals(r.topTie, [false, true, true]);
  assertEquals(r.tiedAtTop, 1);
  assertEquals(r.rankOf(4), 4);
  assertEquals(r.rankOf(0), 5);
  assertEquals(r.tied(4), false);
  // the tie is broken by the seeded hash key, lower first
  const [x, y] = r.top.slice(1);
  ok(tieKey(fnv1a32("q"), p.hashes[x]) < tieKey(fnv1a32("q"), p.hashes[y]));
  ok(r.above(x, y) && !r.above(y, x));
});

Deno.test("rankQuery: a tie straddling the cut marks the last top entry tied", () => {
  const p = pool(["a", "b", "c"]);
  const r = rankQuery(new Float32Array([0.7, 0.7, 0.9]), p, 1, 2);
  assertEquals(r.top[0], 2);
  assertEquals(r.topTie, [false, true]);
  const hidden = r.top[1] === 0 ? 1 : 0;
  assertEquals(r.rankOf(hidden), 3);
  assertEquals(r.tied(hidden), true);
});

Deno.test("rankQuery: everything tied; depth beyond the pool", () => {
  const p = pool(["t#c", "t#m0", "t#m1"]);
  const r = rankQuery(new Float32Array([1, 1, 1]), p, 5, 10);
  assertEquals(r.top.length, 3);
  assertEquals(r.tiedAtTop, 3);
  assertEquals(r.topTie, [true, true, true]);
  assertEquals(new Set(r.top.map((d) => r.rankOf(d))), new Set([1, 2, 3]));
});

Deno.test("the tie-break does not favour canonicals ('#c' sorts before '#m…')", () => {
  // Five-way ties for 2,000 queries: a canonical-favouring tie-break would put
  // "#c" first every time; a neutral one about one time in five.
  const ids = ["t#c", "t#m0", "t#m1", "t#m2", "t#m3"];
  const p = pool(ids);
  const scores = new Float32Array(5).fill(0.5);
  let first = 0;
  for (let q = 0; q < 2000; q++) {
    if (rankQuery(scores, p, fnv1a32(`task/${q}`), 1).top[0] === 0) first++;
  }
  ok(first > 300 && first < 500, `canonical first in ${first} of 2000`);
});
