import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { exec_at_k } from "./exec_at_k.ts";
import { exec_ndcg_gap, ndcg_at_k } from "./ndcg_at_k.ts";

/** Every ranking of length n with exactly one correct snippet (at each rank, or absent). */
function singleCanonicalRankings(n: number): boolean[][] {
  const all: boolean[][] = [Array(n).fill(false)];
  for (let r = 0; r < n; r++) all.push(Array.from({ length: n }, (_, i) => i === r));
  return all;
}

Deno.test("single-canonical queries: nDCG@1 = exec@1 and gap@k = exec@k − nDCG@k ≥ 0", () => {
  for (const relevant of singleCanonicalRankings(12)) {
    assertEquals(ndcg_at_k(relevant, 1, 1), exec_at_k(relevant, 1));
    for (const k of [1, 3, 5, 10]) {
      const gap = exec_ndcg_gap(relevant, k, 1);
      assertEquals(gap, exec_at_k(relevant, k) - ndcg_at_k(relevant, k, 1));
      ok(gap >= 0, `gap@${k} is never negative`);
    }
  }
  // The canonical at rank 3 behind two buggy copies of its own task: found by exec@3,
  // discounted by nDCG@3 (a topical nDCG would score this 1).
  const third = [false, false, true];
  assertEquals(exec_at_k(third, 3), 1);
  assertEquals(ndcg_at_k(third, 3, 1), 0.5);
  assertEquals(exec_ndcg_gap(third, 3, 1), 0.5);
});
