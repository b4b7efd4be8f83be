import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { runEmbedStage } from "./embed_stage.ts";
import { readEmbeddingFile } from "./embedding_file.ts";
import { fakeVector, faults, json, startLoopback } from "../../test/support/loopback_server.ts";

Deno.env.set("EXECRET_QUIET", "1");

Deno.test("embed stage records truncated_inputs from the cache, the same on a rerun; absent when nothing was cut", async () => {
  const out = await Deno.makeTempDir({ prefix: "execret-trunc-" });
  Deno.env.set("EXECRET_OUT", out);
  Deno.env.delete("EXECRET_CACHE");
  const long = "def long():\n    return " + "1 + ".repeat(100) + "1";
  await writeTable(
    "queries",
    withNulls(QUERIES, [{ query_id: "t/1", task_id: "t/1", query: "add" }]),
    QUERIES,
    {
      parquet: false,
    },
  );
  const codes = ["def a(): pass", long, long, "def b(): pass"]; // the long text twice: one input
  await writeTable(
    "corpus",
    withNulls(CORPUS, codes.map((code, i) => ({ corpus_id: `c${i}`, task_id: "t/1", code }))),
    CORPUS,
    { parquet: false },
  );
  const server = startLoopback((req) => {
    const input = req.body.input as string[];
    const over = input.find((t) => new TextEncoder().encode(t).length > 96);
    if (over !== undefined) return faults.tooLongInput("mistral", over.length, 96);
    return json({ data: input.map((t, index) => ({ embedding: fakeVector(t, 4), index })) });
  });
  const entry = (name: string) => ({
    name,
    provider: "mistral",
    model: "m",
    similarity: "cosine",
    dims: 4,
    normalize: true,
    key_env: "K",
    base_url: server.url,
    batch_size: 8,
    max_retries: 0,
    limits: { tokens_per_input: 96 },
    query: {},
    document: {},
    doc: "https://example.org",
  });
  const table = join(out, "invocations.json");
  await Deno.writeTextFile(table, JSON.stringify({ invocations: [entry("cut")] }));
  const opts = {
    configs: ["cut"],
    quiet: true,
    invocationsPath: table,
    provider: { env: { K: "k" } },
  };
  try {
    const r = await runEmbedStage(opts);
    strictEqual(r.configs[0].truncated, 1);
    const path = join(out, "embeddings", "cut.arrow");
    const first = await Deno.readFile(path);
    strictEqual((await readEmbeddingFile(path)).metadata.truncated_inputs, "1");
    // Rerun from the cache: no requests, same count, same bytes.
    const before = server.requests.length;
    await runEmbedStage(opts);
    strictEqual(server.requests.length, before);
    ok((await Deno.readFile(path)).every((b, i) => b === first[i]));
    // A corpus with nothing too long writes no truncated_inputs key.
    await writeTable(
      "corpus",
      withNulls(CORPUS, [{ corpus_id: "c0", task_id: "t/1", code: "def a(): pass" }]),
      CORPUS,
      { parquet: false },
    );
    // A new path: the table loader caches by path.
    const table2 = join(out, "invocations-whole.json");
    await Deno.writeTextFile(table2, JSON.stringify({ invocations: [entry("whole")] }));
    await runEmbedStage({ ...opts, configs: ["whole"], invocationsPath: table2 });
    const meta = (await readEmbeddingFile(join(out, "embeddings", "whole.arrow"))).metadata;
    ok(!("truncated_inputs" in meta));
  } finally {
    await server.close();
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});
