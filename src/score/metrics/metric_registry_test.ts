import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  evaluateMetrics,
  METRIC_REGISTRY,
  metricLabel,
  metricNames,
  recomputableMetrics,
  recomputableNames,
} from "./metric_registry.ts";
import type { MetricEntry, ScoredQuery } from "./metric.ts";
import { EXEC_METRIC, EXPECTED_EXEC_METRIC } from "./exec_at_k.ts";
import { MRR_METRIC } from "./mrr.ts";

// Canonical at rank 2 behind its own off_by_one copy; a wrong_operator copy at rank 3.
const q: ScoredQuery = {
  relevant: [false, true, false, false],
  relevantCount: 1,
  canonicalRank: 2,
  tiedAtTop: 1,
  correctTiedAtTop: 0,
  top1OwnTask: true,
  canonicalScore: 0.8,
  distractors: [
    { score: 0.9, bugType: "off_by_one", outranks: true },
    { score: 0.7, bugType: "wrong_operator", outranks: false },
  ],
};

Deno.test("the registry emits per_query rows in the score stage's order", () => {
  const rows = evaluateMetrics(METRIC_REGISTRY, q, [1, 3]).map((p) => `${p.metric}@${p.k}`);
  assertEquals(rows, [
    "exec@1",
    "precision@1",
    "ndcg@1",
    "gap@1",
    "mrr@1",
    "exec@3",
    "precision@3",
    "ndcg@3",
    "gap@3",
    "mrr@3",
    "expected_exec@1",
    "top_tie@1",
    "mrr@0",
    "canonical_rank@0",
    "miss_own_distractor@1",
    "below_distractor@0",
    "margin@0",
    "outrank:off_by_one@0",
    "outrank:wrong_operator@0",
  ]);
  const v = (name: string, k: number) =>
    evaluateMetrics(METRIC_REGISTRY, q, [1, 3]).find((p) => p.metric === name && p.k === k)
      ?.value;
  assertEquals([v("exec", 1), v("exec", 3), v("mrr", 3), v("mrr", 0)], [0, 1, 0.5, 0.5]);
  assertEquals([v("miss_own_distractor", 1), v("below_distractor", 0)], [1, 1]);
  assertEquals([v("outrank:off_by_one", 0), v("outrank:wrong_operator", 0)], [1, 0]);
  ok(Math.abs(v("margin", 0)! - (0.8 - 0.9)) < 1e-12);
});

Deno.test("undefined values write no row: a hit has no miss attribution, no distractors no margin", () => {
  const hit: ScoredQuery = {
    ...q,
    relevant: [true],
    canonicalRank: 1,
    correctTiedAtTop: 1,
    distractors: [],
  };
  const names = evaluateMetrics(METRIC_REGISTRY, hit, [1]).map((p) => p.metric);
  ok(!names.includes("miss_own_distractor"));
  ok(!names.includes("below_distractor") && !names.includes("margin"));
  ok(!names.some((n) => n.startsWith("outrank:")));
});

Deno.test("statistics order, recomputable names and labels come from the registry", () => {
  // The order the stats stage reports metrics in (src/stats/per_query_matrix.ts METRIC_ORDER).
  assertEquals(metricNames(), [
    "exec",
    "precision",
    "ndcg",
    "gap",
    "expected_exec",
    "top_tie",
    "mrr",
    "canonical_rank",
    "miss_own_distractor",
    "below_distractor",
    "margin",
    "outrank",
  ]);
  assertEquals(recomputableNames(), ["exec", "precision", "ndcg", "gap", "mrr", "canonical_rank"]);
  ok(recomputableMetrics().every((m) => m.recomputable));
  assertEquals(metricLabel(EXEC_METRIC, 5), "exec@5");
  assertEquals(metricLabel(MRR_METRIC, 0), "MRR");
  assertEquals(metricLabel(EXPECTED_EXEC_METRIC, 1), "tie-aware exec@1");
});

Deno.test("rankings-only evidence evaluates the recomputable entries alike", () => {
  const ranked = { relevant: q.relevant, relevantCount: 1, canonicalRank: 2 };
  const full = evaluateMetrics(METRIC_REGISTRY, q, [1, 3]);
  const fromRankings = evaluateMetrics(recomputableMetrics(), ranked, [1, 3]);
  const keep = new Set(recomputableNames());
  assertEquals(fromRankings, full.filter((p) => keep.has(p.metric)));
});

Deno.test("every entry is well formed: unique (name, cutoff), identifier names", () => {
  const seen = new Set<string>();
  for (const m of METRIC_REGISTRY as readonly MetricEntry[]) {
    ok(/^[a-z][a-z0-9_]*$/.test(m.name), m.name);
    const key = `${m.name}@${m.at}`;
    ok(!seen.has(key), `${key} twice`);
    seen.add(key);
    ok(m.label.length > 0 && m.description.endsWith("."), m.name);
  }
});
