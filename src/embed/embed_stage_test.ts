import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { readRows, readTable, withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { runEmbedStage } from "./embed_stage.ts";
import { TINY_INVOCATION, TINY_MODELS } from "../../test/support/tiny_model.ts";
import { readEmbeddingFile, summarizeEmbeddingFile } from "./embedding_file.ts";
import { fakeVector, json, startLoopback } from "../../test/support/loopback_server.ts";

const TABLE = {
  invocations: [
    TINY_INVOCATION,
    {
      name: "bm25",
      provider: "bm25",
      model: "okapi-bm25",
      similarity: "dot",
      normalize: false,
      query: {},
      document: {},
      doc: "https://example.org/bm25",
    },
    {
      name: "needs-key",
      provider: "voyage",
      model: "voyage-code-3",
      similarity: "cosine",
      dims: 4,
      normalize: true,
      key_env: "EXECRET_TEST_NO_SUCH_KEY",
      base_url: "http://127.0.0.1:9",
      query: {},
      document: {},
      doc: "https://example.org/voyage",
    },
  ],
};

async function setup(): Promise<{ out: string; table: string }> {
  const out = await Deno.makeTempDir({ prefix: "execret-embed-" });
  Deno.env.set("EXECRET_OUT", out);
  Deno.env.delete("EXECRET_CACHE");
  const queries = [
    { query_id: "t/1", task_id: "t/1", query: "add two numbers" },
    { query_id: "t/2", task_id: "t/2", query: "reverse a string" },
  ];
  const codes = [
    "def add(a, b):\n    return a + b",
    "def add(a, b):\n    return a - b",
    "def rev(s):\n    return s[::-1]",
    "def rev(s):\n    return s[::1]",
    "def rev(s):\n    return s[::-1]", // same text as another id: embedded once
  ];
  const corpus = codes.map((code, i) => ({ corpus_id: `c${i}`, task_id: "t", code }));
  await writeTable("queries", withNulls(QUERIES, queries), QUERIES, { parquet: false });
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS, { parquet: false });
  const table = join(out, "invocations.json");
  await Deno.writeTextFile(table, JSON.stringify(TABLE));
  return { out, table };
}

const env = { EXECRET_MODELS: TINY_MODELS };

Deno.test("embed stage writes the contract file, reruns byte-identically from the cache, resumes", async () => {
  const { out, table } = await setup();
  try {
    const first = await runEmbedStage({
      configs: ["tiny", "bm25"],
      quiet: true,
      invocationsPath: table,
      provider: { env },
    });
    const [tiny, bm25] = first.configs;
    strictEqual(bm25.status, "sparse");
    strictEqual(tiny.status, "written");
    strictEqual(tiny.rows, 7);
    strictEqual(tiny.embedded, 6); // 2 queries + 4 distinct snippets
    strictEqual(tiny.cached, 0);
    const path = join(out, "embeddings", "tiny.arrow");
    const bytes = await Deno.readFile(path);

    const t = await readTable(path);
    const meta = t.schema.metadata;
    for (
      const [k, v] of Object.entries({
        config: "tiny",
        provider: "hf",
        model: "tiny-bert",
        similarity: "cosine",
        dims: "32",
        normalized: "true",
      })
    ) strictEqual(meta.get(k), v, k);
    strictEqual(JSON.parse(meta.get("invocation")!).query.prefix, "find: ");
    strictEqual(JSON.parse(meta.get("versions")!)["@huggingface/transformers"], "4.3.2");
    ok(/^\d{4}-\d\d-\d\dT/.test(meta.get("created_at")!));
    const rows = await readRows<{ id: string; role: string; vector: Float32Array }>(path);
    assertEquals(rows.map((r) => `${r.role}:${r.id}`), [
      "query:t/1",
      "query:t/2",
      "document:c0",
      "document:c1",
      "document:c2",
      "document:c3",
      "document:c4",
    ]);
    assertEquals(rows[4].vector, rows[6].vector);
    const flat = await readEmbeddingFile(path);
    strictEqual(flat.dims, 32);
    assertEquals(flat.ids, rows.map((r) => r.id));
    assertEquals(flat.values.subarray(32, 64), rows[1].vector);
    strictEqual(flat.metadata.config, "tiny");

    const summary = await summarizeEmbeddingFile(path);
    strictEqual(summary.rows, 7);
    strictEqual(summary.queries, 2);
    strictEqual(summary.documents, 5);
    strictEqual(summary.dims, 32);
    strictEqual(summary.nonFinite, 0);
    strictEqual(summary.zeroNorm, 0);
    ok(Math.abs(summary.normMin - 1) < 1e-5 && Math.abs(summary.normMax - 1) < 1e-5);
    assertEquals(summary.problems, []);

    // Rerun: nothing embedded, identical bytes — and no model needed at all.
    const again = await runEmbedStage({
      configs: ["tiny"],
      quiet: true,
      invocationsPath: table,
      provider: { env: { EXECRET_MODELS: "/nonexistent" } },
    });
    strictEqual(again.configs[0].embedded, 0);
    strictEqual(again.configs[0].cached, 6);
    assertEquals(await Deno.readFile(path), bytes);

    // Lose one cache segment (as if killed mid-run): only that batch is redone.
    const segDir = join(out, "cache", "vectors", "tiny");
    const segs = [...Deno.readDirSync(segDir)].map((e) => e.name).sort();
    strictEqual(segs.length, 3); // 1 query chunk of 2 + document chunks of 2 and 2
    await Deno.remove(join(segDir, segs[0]));
    const resumed = await runEmbedStage({
      configs: ["tiny"],
      quiet: true,
      invocationsPath: table,
      provider: { env },
    });
    strictEqual(resumed.configs[0].embedded, 2);
    const resumedRows = await readRows<{ vector: Float32Array }>(path);
    for (let i = 0; i < rows.length; i++) {
      const a = rows[i].vector, b = resumedRows[i].vector;
      ok(a.every((x, j) => Math.abs(x - b[j]) < 1e-6), `row ${i} changed on resume`);
    }
  } finally {
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("embed stage: a missing key fails in one line naming the env var, or skips when asked", async () => {
  const { out, table } = await setup();
  try {
    await rejects(
      runEmbedStage({
        configs: ["needs-key"],
        quiet: true,
        invocationsPath: table,
        provider: { env: {} },
      }),
      /^UserError: needs-key: missing env var EXECRET_TEST_NO_SUCH_KEY \(API key\)/,
    );
    const r = await runEmbedStage({
      configs: ["needs-key"],
      skipUnavailable: true,
      quiet: true,
      invocationsPath: table,
      provider: { env: {} },
    });
    strictEqual(r.configs[0].status, "skipped");
    await rejects(
      runEmbedStage({ configs: ["nope"], quiet: true, invocationsPath: table }),
      /unknown config "nope"/,
    );
  } finally {
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("embed stage over a hosted API: a failed run keeps finished batches, the rerun fetches only the rest", async () => {
  const { out, table } = await setup();
  let failFrom = 2; // requests from this index on fail with a non-retryable 400
  const server = startLoopback((req, n) => {
    if (req.headers.get("authorization") !== "Bearer k") return json({ error: "auth" }, 401);
    if (n >= failFrom) return json({ error: "bad request" }, 400);
    const input = req.body.input as string[];
    return json({
      data: input.map((t, index) => ({ embedding: fakeVector(t, 4), index })),
      usage: { total_tokens: input.length },
    });
  });
  try {
    const entry = {
      ...TABLE.invocations[2],
      name: "hosted",
      base_url: server.url,
      batch_size: 2,
      concurrency: 1,
      max_retries: 0,
    };
    await Deno.writeTextFile(table, JSON.stringify({ invocations: [entry] }));
    const opts = {
      configs: ["hosted"],
      quiet: true,
      invocationsPath: table,
      provider: { env: { EXECRET_TEST_NO_SUCH_KEY: "k" } },
    };
    await rejects(runEmbedStage(opts), /hosted: HTTP 400/);
    strictEqual(server.requests.length, 3);
    failFrom = Infinity;
    const r = await runEmbedStage(opts);
    strictEqual(r.configs[0].embedded, 2); // 6 distinct texts, 4 kept from the failed run
    strictEqual(r.configs[0].requests?.requests, 1);
    strictEqual(r.configs[0].requests?.tokens, 2);
    strictEqual(server.requests.length, 4);
    const s = await summarizeEmbeddingFile(join(out, "embeddings", "hosted.arrow"));
    strictEqual(s.rows, 7);
    strictEqual(s.dims, 4);
    strictEqual(s.nonFinite + s.zeroNorm, 0);
  } finally {
    await server.close();
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});
