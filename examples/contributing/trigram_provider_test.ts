/**
 * The trigram provider plugged in as a contributor would: its entry added to
 * the registry the embed stage resolves providers in, a config of it in an
 * invocation table, and the real embed stage writing its embedding file.
 */
import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { withNulls, writeTable } from "../../src/io/arrow_table.ts";
import { CORPUS, QUERIES } from "../../src/tables/schema.ts";
import { PROVIDER_ENTRIES } from "../../src/embed/provider_registry.ts";
import { runEmbedStage } from "../../src/embed/embed_stage.ts";
import { readEmbeddingFile } from "../../src/embed/embedding_file.ts";
import { l2Normalize } from "../../src/embed/vectors.ts";
import { TRIGRAM_DIMS, trigramCounts, trigramEntry } from "./trigram_provider.ts";

// The "one line" in src/embed/provider_registry.ts, done here without editing it.
const providers = [...PROVIDER_ENTRIES, trigramEntry];

const CONFIG = {
  name: "trigram-256",
  provider: "trigram",
  model: "fnv1a-char3",
  similarity: "cosine",
  dims: TRIGRAM_DIMS,
  normalize: true,
  query: { prefix: "query: " },
  document: {},
  doc: "https://en.wikipedia.org/wiki/Trigram",
};

const QUERY_ROWS = [
  { query_id: "q/add", task_id: "q/add", query: "add two numbers" },
  { query_id: "q/rev", task_id: "q/rev", query: "reverse a string" },
  { query_id: "q/max", task_id: "q/max", query: "largest value in a list" },
];
const CODES: Record<string, string> = {
  "c/add": "def add_numbers(a, b):\n    return a + b",
  "c/rev": "def reverse_string(s):\n    return s[::-1]",
  "c/max": "def largest_value(values):\n    return max(values)",
};

async function setup(): Promise<string> {
  const out = await Deno.makeTempDir({ prefix: "execret-trigram-" });
  Deno.env.set("EXECRET_OUT", out);
  Deno.env.delete("EXECRET_CACHE");
  const corpus = Object.entries(CODES).map(([corpus_id, code]) => ({
    corpus_id,
    task_id: corpus_id.replace("c/", "q/"),
    code,
  }));
  await writeTable("queries", withNulls(QUERIES, QUERY_ROWS), QUERIES, { parquet: false });
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS, { parquet: false });
  const table = join(out, "invocations.json");
  await Deno.writeTextFile(table, JSON.stringify({ invocations: [CONFIG] }));
  return table;
}

Deno.test("trigram provider: the embed stage writes its vectors, and each query finds its own snippet", async () => {
  const table = await setup();
  const out = Deno.env.get("EXECRET_OUT")!;
  try {
    const { configs: [result] } = await runEmbedStage({
      configs: ["trigram-256"],
      invocationsPath: table,
      quiet: true,
      provider: { providers },
    });
    strictEqual(result.status, "written");
    strictEqual(result.embedded, 6);
    const file = await readEmbeddingFile(result.path!);
    strictEqual(file.metadata.provider, "trigram");
    strictEqual(file.dims, TRIGRAM_DIMS);
    const vector = (i: number) => file.values.subarray(i * file.dims, (i + 1) * file.dims);
    // Stored vectors are the provider's own: prefix applied, then normalised.
    const q0 = l2Normalize(Float32Array.from(trigramCounts("query: add two numbers")));
    assertEquals(Array.from(vector(0)), Array.from(q0));
    // Cosine ranking over the stored vectors: every query's top snippet is its own task's.
    const docs = file.roles.flatMap((role, i) => role === "document" ? [i] : []);
    for (const [qi, q] of QUERY_ROWS.entries()) {
      const dot = (d: number) => vector(qi).reduce((s, x, j) => s + x * vector(d)[j], 0);
      const best = docs.reduce((a, b) => dot(b) > dot(a) ? b : a);
      strictEqual(file.ids[best], q.query_id.replace("q/", "c/"), q.query_id);
    }
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("trigram provider: without its registry line the config is a one-line error", async () => {
  const table = await setup();
  const out = Deno.env.get("EXECRET_OUT")!;
  try {
    await rejects(
      runEmbedStage({ configs: ["trigram-256"], invocationsPath: table, quiet: true }),
      (e: Error) => {
        ok(/entry 0 \(trigram-256\): provider "trigram" is not one of bm25, /.test(e.message));
        ok(!e.message.includes("\n"));
        return true;
      },
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
