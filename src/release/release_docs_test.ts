/**
 * Facts the release's own READMEs state (revision ace5c3f, as quoted in the
 * issue "Reproduce the paper itself"), checked against the reader and the
 * committed fixture, so a fixture written from our reading cannot drift from
 * the documentation unnoticed.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { domainOfEntry } from "./release_tasks.ts";
import { metricKey } from "./metric_key.ts";
import { BUNDLE_FILES, readBundle } from "./read_bundle.ts";

const FIXTURE = fileURLToPath(new URL("../../test/fixtures/release/paper", import.meta.url));

Deno.test("tests/README.md: pairwise entries name exec@k, execution_precision@k and ndcg@k", () => {
  assertEquals(metricKey("exec@1"), { name: "exec@1", family: "exec", k: 1 });
  assertEquals(metricKey("execution_precision@5"), {
    name: "execution_precision@5",
    family: "precision",
    k: 5,
  });
  assertEquals(metricKey("ndcg@10"), { name: "ndcg@10", family: "ndcg", k: 10 });
});

Deno.test("README.md: the top level, and results/ holding the two aggregate files", async () => {
  for (
    const entry of [
      "data",
      "results",
      "embeddings",
      "tests",
      "eval",
      "generation",
      "requirements.txt",
      "pip_freeze.txt",
      "SHA256SUMS",
      "sanity_check.py",
      "README.md",
    ]
  ) {
    ok(await Deno.stat(join(FIXTURE, entry)), entry);
  }
  assertEquals(BUNDLE_FILES.leaderboard, "results/full_leaderboard.json");
  assertEquals(BUNDLE_FILES.invocations, "results/invocation_table.json");
});

Deno.test("data/README.md: bug_type absent on canonicals, domains in exec_<domain>_<n> batch ids", async () => {
  const rows = (await Deno.readTextFile(join(FIXTURE, "data/corpus.jsonl")))
    .split("\n").filter((l) => l).map((l) => JSON.parse(l));
  ok(rows.filter((r) => r.label === "correct").every((r) => !("bug_type" in r)));
  const bundle = await readBundle(FIXTURE);
  ok([...bundle.corpus.values()].every((s) => (s.label === "correct") === (s.bug_type === null)));
  assertEquals(domainOfEntry("exec_string_processing_5"), "string_processing");
  // entry_id is a batch id shared by queries, not unique.
  const entries = bundle.queries.map((q) => q.entry_id);
  ok(new Set(entries).size < entries.length, "some queries share a batch id");
});

Deno.test("results/README.md: 24 per-model files = dense systems + BM25, keyed by their model id", async () => {
  const bundle = await readBundle(FIXTURE);
  ok(bundle.runs.some((r) => r.model === "BM25"));
  for (const run of bundle.runs) {
    if (run.model !== "BM25") ok(bundle.embeddings.has(run.model), `${run.model} has its .npz`);
  }
});
