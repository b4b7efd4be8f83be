import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { auditCache } from "./audit_cache.ts";
import { detectTestsRule } from "./cache_keys.ts";
import { readBundle } from "./read_bundle.ts";
import { brokenBundle, editLines, FIXTURE_BUNDLE } from "./_test_bundle.ts";

async function auditOf(dir: string) {
  const bundle = await readBundle(dir);
  return auditCache(bundle, detectTestsRule(bundle));
}

Deno.test("the fixture's verdicts agree with its own execution cache", async () => {
  const { rows, details } = await auditOf(FIXTURE_BUNDLE);
  assertEquals(details, []);
  assertEquals(rows.filter((r) => r.match === false), []);
  const q = (quantity: string, subject = "all") =>
    rows.find((r) => r.quantity.startsWith(quantity) && r.subject === subject)!;
  assertEquals([q("canonicals passing").released, q("distractors failing").released], [6, 23]);
  // Every top result of every model was executed when the fixture was made.
  assertEquals(q("top results not in the cache", "bm25"), undefined);
  assertEquals(q("cached top results agreeing", "bm25").released, 60);
});

Deno.test("a distractor the cache says passes, and a doctored verdict, are named", async () => {
  const dir = await brokenBundle((d) =>
    editLines(
      join(d, "data/execution_cache.jsonl"),
      (lines) =>
        lines.map((l) =>
          l.includes('["FAIL", "pass", "FAIL:both ends", "pass"]') // c0003 against q0001's tests
            ? l.replace(
              '["FAIL", "pass", "FAIL:both ends", "pass"]',
              '["pass", "pass", "pass", "pass"]',
            )
            : l
        ),
    )
  );
  try {
    const { rows, details } = await auditOf(dir);
    const bad = rows.filter((r) => r.match === false).map((r) => `${r.subject}: ${r.quantity}`);
    ok(bad.includes("all: distractors failing (cache)"), bad.join("; "));
    ok(details.some((d) => /queries\.jsonl:1: distractor c0003 passes every test/.test(d)));
    // Wherever a model ranked c0003 for q0001, its released test_results now disagree.
    ok(
      details.some((d) =>
        /results\/.*: query q0001 rank \d+ \(c0003\): test_results differ/.test(d)
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
