import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { auditNumbers } from "./audit_numbers.ts";
import { type AuditRow, summarizeAudit } from "./audit_row.ts";
import { kitAuditStats } from "./kit_stats.ts";
import { readBundle } from "./read_bundle.ts";
import { brokenBundle, editJson, editLines, FIXTURE_BUNDLE } from "./_test_bundle.ts";

async function audit(dir: string): Promise<AuditRow[]> {
  const bundle = await readBundle(dir);
  return auditNumbers(bundle, kitAuditStats(bundle.queries.length));
}

async function auditEdited(
  file: string,
  change: (v: Record<string, unknown>) => void,
): Promise<AuditRow[]> {
  const dir = await brokenBundle((d) => editJson(join(d, file), change));
  try {
    return await audit(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const mismatches = (rows: AuditRow[]) => rows.filter((r) => r.match === false);

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("every number of the fixture bundle matches the kit's recomputation", async () => {
  const rows = await audit(FIXTURE_BUNDLE);
  // 3 models × 16 metrics in results and leaderboard; × 6 quantities in the
  // intervals; 3 pairs × 16 metrics × (3 rates + 2 endpoints) plus, on exec@k,
  // 4 counts and p.
  const bySection = (s: string) => rows.filter((r) => r.section === s).length;
  assertEquals(bySection("metrics"), 48);
  assertEquals(bySection("leaderboard"), 48);
  assertEquals(bySection("intervals"), 288);
  assertEquals(bySection("pairwise"), 240 + 3 * 4 * 5);
  assertEquals(summarizeAudit(rows), { checked: 684, matched: 684, mismatched: 0, unchecked: 0 });
});

Deno.test("McNemar counts and p are recomputed from the rankings, not copied", async () => {
  const rows = await audit(FIXTURE_BUNDLE);
  const pick = (q: string) =>
    rows.find((r) =>
      r.subject === "acme-embed-small vs nimbus-code-v2" && r.metric === "exec" && r.k === 1 &&
      r.quantity === q
    )!;
  // Hand-read from the results files: acme-embed-small passes at rank 1 on q0001 and q0004,
  // nimbus-code-v2 on q0002, q0003, q0004 and q0005; neither on q0006.
  assertEquals([pick("a_only").recomputed, pick("b_only").recomputed], [1, 3]);
  assertEquals([pick("both").recomputed, pick("neither").recomputed], [1, 1]);
  // 1 vs 3 discordant: 2 · (C(4,0) + C(4,1)) / 2⁴ = 0.625.
  assertEquals(pick("mcnemar_exact_p").recomputed, 0.625);
});

Deno.test("a released metric that does not match its per_query is flagged with file and key", async () => {
  const rows = await auditEdited("results/bm25.json", (v: Json) => {
    v.metrics["exec@1"] = 0.5;
  });
  const bad = mismatches(rows);
  assertEquals(bad.length, 1);
  assertEquals([bad[0].section, bad[0].subject, bad[0].metric, bad[0].k], [
    "metrics",
    "bm25",
    "exec",
    1,
  ]);
  ok(/results\/bm25\.json: metrics\["exec@1"\]$/.test(bad[0].locator));
  ok(Math.abs(bad[0].recomputed! - 2 / 6) < 1e-12);
});

Deno.test("one unit in the last released decimal is a mismatch", async () => {
  const rows = await auditEdited("results/acme-embed-small.json", (v: Json) => {
    v.metrics["exec@3"] = 0.8334; // recomputed 5/6 = 0.83333…, released to 4 decimals
  });
  const bad = mismatches(rows);
  assertEquals(bad.map((r) => [r.metric, r.k]), [["exec", 3]]);
  ok(Math.abs(bad[0].tolerance! - 0.00005) < 1e-9);
});

Deno.test("a wrong pairwise p and a wrong count are flagged", async () => {
  const rows = await auditEdited("tests/pairwise_tests.json", (v: Json) => {
    v["acme-embed-small vs nimbus-code-v2"]["exec@1"].mcnemar_exact_p = 0.25;
    v["acme-embed-small vs bm25"]["exec@3"].b_only = 2;
  });
  const bad = mismatches(rows);
  assertEquals(bad.map((r) => `${r.subject} ${r.metric}@${r.k} ${r.quantity}`).sort(), [
    "acme-embed-small vs bm25 exec@3 b_only",
    "acme-embed-small vs nimbus-code-v2 exec@1 mcnemar_exact_p",
  ]);
  ok(bad.every((r) => /tests\/pairwise_tests\.json: "acme-embed-small vs /.test(r.locator)));
});

Deno.test("bootstrap endpoints: Monte Carlo noise is accepted, a real difference is not", async () => {
  // bm25 ndcg@3: the release's low end is 0.5655, the kit's generator gives 0.5436; the
  // window of 3 sigma of rank noise around it is about ±0.022.
  const near = await auditEdited("tests/confidence_intervals.json", (v: Json) => {
    v.bm25["ndcg@3"].ci95_low = 0.55;
  });
  assertEquals(mismatches(near), []);
  const far = await auditEdited("tests/confidence_intervals.json", (v: Json) => {
    v.bm25["ndcg@3"].ci95_low = 0.45;
    v.bm25["exec@1"].seed = 42;
  });
  assertEquals(
    mismatches(far).map((r) => `${r.metric}@${r.k} ${r.quantity}`).sort(),
    ["exec@1 seed", "ndcg@3 ci95_low"],
  );
});

Deno.test("a metric the kit cannot recompute is listed as unchecked, not matched", async () => {
  const rows = await auditEdited("results/bm25.json", (v: Json) => {
    v.metrics["mrr@10"] = 0.7;
  });
  const s = summarizeAudit(rows);
  assertEquals([s.unchecked, s.mismatched], [1, 0]);
});

Deno.test("the audit does not depend on the order of queries.jsonl", async () => {
  const reversed = await brokenBundle((d) =>
    editLines(join(d, "data/queries.jsonl"), (lines) => lines.reverse())
  );
  try {
    const a = await audit(FIXTURE_BUNDLE);
    const b = (await audit(reversed)).map((r) => ({ ...r, locator: "" }));
    assertEquals(b, a.map((r) => ({ ...r, locator: "" })));
  } finally {
    await Deno.remove(reversed, { recursive: true });
  }
});
