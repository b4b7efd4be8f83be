import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { reciprocalRankFusion, rrfReranker } from "./rrf.ts";

Deno.test("rrf: fused scores and order match a hand computation (k = 60)", () => {
  const fused = reciprocalRankFusion([["a", "b", "c"], ["c", "a", "d"]], 60);
  assertEquals(fused.map((d) => d.id), ["a", "c", "b", "d"]);
  const want: Record<string, number> = {
    a: 1 / 61 + 1 / 62,
    c: 1 / 63 + 1 / 61,
    b: 1 / 62,
    d: 1 / 63,
  };
  for (const d of fused) ok(Math.abs(d.score - want[d.id]) < 1e-15, d.id);
});

Deno.test("rrf: k changes the order where ranks trade off", () => {
  // x: ranks 1 and 9; y: ranks 4 and 4. Small k favours a first place, large k consistency.
  const a = ["x", "p", "q", "y", "r", "s", "t", "u", "v"];
  const b = ["p", "q", "r", "y", "s", "t", "u", "v", "x"];
  const top = (k: number) =>
    reciprocalRankFusion([a, b], k).findIndex((d) => d.id === "x") <
      reciprocalRankFusion([a, b], k).findIndex((d) => d.id === "y");
  assertEquals(top(0), true); // 1 + 1/9 > 1/4 + 1/4
  assertEquals(top(60), false); // 1/61 + 1/69 < 2/64
});

Deno.test("rrf: equal fused scores go by best rank, then first list, then id", () => {
  assertEquals(reciprocalRankFusion([["x", "y"], ["y", "x"]]).map((d) => d.id), ["x", "y"]);
  assertEquals(reciprocalRankFusion([["y", "x"], ["x", "y"]]).map((d) => d.id), ["y", "x"]);
  throws(() => reciprocalRankFusion([["a"]], -1), /k must be/);
});

Deno.test("rrf reranker: fuses each query's two base lists, at no cost", async () => {
  const cand = (ids: string[]) =>
    ids.map((corpus_id, i) => ({ corpus_id, code: "", rank: i + 1, score: 0 }));
  const r = await rrfReranker(60).rerank({
    config: "rrf:a+b",
    bases: ["a", "b"],
    k: 10,
    queries: [{
      query_id: "q",
      task_id: "t",
      query: "",
      entry_point: "f",
      setup: "",
      rankings: [cand(["a", "b", "c"]), cand(["c", "a", "d"])],
      visible_tests: [],
    }],
  });
  assertEquals(r.queries[0].order.map((o) => o.corpus_id), ["a", "c", "b", "d"]);
  assertEquals(r.queries[0].cost.suites + r.queries[0].cost.api_calls, 0);
});
