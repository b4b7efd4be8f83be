import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { exec_at_k, expected_exec_at_1 } from "./exec_at_k.ts";
import { precision_at_k } from "./precision_at_k.ts";
import { exec_ndcg_gap, ndcg_at_k } from "./ndcg_at_k.ts";
import { mrr, reciprocal_rank } from "./mrr.ts";
import {
  canonical_below_distractor,
  canonical_margin,
  outrank_share_by_bug_type,
  rank1_outcome,
} from "./distractor_diagnostics.ts";

const close = (a: number, b: number, eps = 1e-12) => ok(Math.abs(a - b) <= eps, `${a} ≠ ${b}`);
const F = false, T = true;

Deno.test("exec_at_k: a correct snippet within the first k", () => {
  assertEquals(exec_at_k([F, T, F], 1), 0);
  assertEquals(exec_at_k([F, T, F], 2), 1);
  assertEquals(exec_at_k([F, F, F, F], 3), 0);
  // k larger than the pool: read the whole (short) ranking
  assertEquals(exec_at_k([F, T], 10), 1);
  assertEquals(exec_at_k([], 5), 0);
});

Deno.test("precision_at_k divides by k even past the end of the ranking", () => {
  close(precision_at_k([T, F, T, F], 3), 2 / 3);
  close(precision_at_k([T, F, T, F], 1), 1);
  close(precision_at_k([T, F], 10), 0.1);
  throws(() => precision_at_k([T], 0));
});

Deno.test("ndcg_at_k: binary gains, log2 discount, ideal over the correct ids", () => {
  // correct at rank 2, one correct id: (1/log2 3) / 1
  close(ndcg_at_k([F, T], 2, 1), 0.6309297535714575);
  close(ndcg_at_k([F, T], 1, 1), 0);
  // ranks 1 and 3 correct of two correct ids: (1 + 1/2) / (1 + 1/log2 3)
  close(ndcg_at_k([T, F, T], 3, 2), 0.9197207891481876);
  close(ndcg_at_k([T], 10, 1), 1);
  assertEquals(ndcg_at_k([F, F], 2, 0), 0);
});

Deno.test("exec_ndcg_gap = exec@k − nDCG@k", () => {
  close(exec_ndcg_gap([F, T], 2, 1), 0.36907024642854247);
  close(exec_ndcg_gap([T, F], 2, 1), 0);
  close(exec_ndcg_gap([F, F], 2, 1), 0);
});

Deno.test("expected_exec_at_1 counts correct ids among the documents tied at the top", () => {
  close(expected_exec_at_1(4, 1), 0.25);
  close(expected_exec_at_1(1, 1), 1);
  close(expected_exec_at_1(3, 0), 0);
  throws(() => expected_exec_at_1(0, 0));
});

Deno.test("mrr of the canonical", () => {
  close(mrr([1, 2, 4]), (1 + 0.5 + 0.25) / 3);
  assertEquals(reciprocal_rank(null), 0);
  close(reciprocal_rank(57), 1 / 57);
  throws(() => reciprocal_rank(0));
});

Deno.test("distractor diagnostics", () => {
  assertEquals(rank1_outcome(true, true), "hit");
  assertEquals(rank1_outcome(false, true), "own_distractor");
  assertEquals(rank1_outcome(false, false), "other_task");
  assertEquals(canonical_below_distractor(0.8, [0.7, 0.81]), 1);
  assertEquals(canonical_below_distractor(0.8, [0.8, 0.7]), 0); // equal is not below
  assertEquals(canonical_below_distractor(0.8, []), 0);
  close(canonical_margin(0.8, [0.7, 0.85])!, -0.05);
  assertEquals(canonical_margin(0.8, []), null);
  assertEquals(
    outrank_share_by_bug_type([
      { bugType: "wrong_operator", outranks: true },
      { bugType: "off_by_one", outranks: true },
      { bugType: "off_by_one", outranks: false },
    ]),
    new Map([["off_by_one", 0.5], ["wrong_operator", 1]]),
  );
});
