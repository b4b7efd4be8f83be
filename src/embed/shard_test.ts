import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { readRows, readTable, withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { runEmbedStage } from "./embed_stage.ts";
import { TINY_INVOCATION, TINY_MODELS } from "../../test/support/tiny_model.ts";
import { mergeCaches } from "../pipeline/merge_cache.ts";
import { parseShard } from "../common/shard.ts";

const env = { EXECRET_MODELS: TINY_MODELS };
const INVOCATIONS = {
  invocations: [TINY_INVOCATION],
};

async function fixture(out: string): Promise<string> {
  Deno.env.set("EXECRET_OUT", out);
  const queries = Array.from({ length: 6 }, (_, i) => ({
    query_id: `t/${i}`,
    task_id: `t/${i}`,
    query: `task number ${i}: ${"compute ".repeat(i)}a value`,
  }));
  const corpus = Array.from({ length: 24 }, (_, i) => ({
    corpus_id: `c${i}`,
    task_id: `t/${i % 6}`,
    code: `def f${i}(x):\n    return x ${"+ 1 ".repeat(i % 7)}`,
  }));
  await writeTable("queries", withNulls(QUERIES, queries), QUERIES, { parquet: false });
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS, { parquet: false });
  const table = join(out, "invocations.json");
  await Deno.writeTextFile(table, JSON.stringify(INVOCATIONS));
  return table;
}

async function contents(path: string) {
  const t = await readTable(path);
  const meta = Object.fromEntries(t.schema.metadata);
  // created_at is the earliest fetch time in the cache: two runs differ there, sharded or not.
  delete meta.created_at;
  const rows = await readRows<{ id: string; role: string; vector: Float32Array }>(path);
  return { meta, rows: rows.map((r) => [r.role, r.id, Array.from(r.vector)]) };
}

Deno.test({
  name:
    "embed shards: two shards, merged vector caches, unsharded run embeds nothing, same vectors",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret_embed_shard_" });
    const saved = ["EXECRET_OUT", "EXECRET_CACHE"].map((k) => [k, Deno.env.get(k)] as const);
    const base = { configs: ["tiny"], quiet: true, workers: 1, provider: { env } };
    try {
      const single = join(root, "single");
      Deno.env.set("EXECRET_CACHE", join(single, "cache"));
      const table = await fixture(single);
      const [reference] = (await runEmbedStage({ ...base, invocationsPath: table })).configs;
      strictEqual(reference.status, "written");
      strictEqual(reference.embedded, 30);

      const sharded = join(root, "sharded");
      const table2 = await fixture(sharded);
      let embedded = 0;
      for (const i of [0, 1]) {
        Deno.env.set("EXECRET_CACHE", join(root, `shard${i}`));
        const [r] = (await runEmbedStage({
          ...base,
          invocationsPath: table2,
          shard: parseShard(`${i}/2`),
        })).configs;
        strictEqual(r.status, "sharded");
        ok(r.embedded! > 0);
        embedded += r.embedded!;
      }
      strictEqual(embedded, 30);
      // A shard writes no file.
      strictEqual(
        await Deno.stat(join(sharded, "embeddings", "tiny.arrow")).catch(() => null),
        null,
      );

      const merged = join(sharded, "cache");
      const m = await mergeCaches([join(root, "shard0"), join(root, "shard1")], merged);
      strictEqual(m.segmentsCopied, 15); // 30 texts in batches of 2
      // Merging again copies nothing new.
      strictEqual((await mergeCaches([join(root, "shard1")], merged)).segmentsCopied, 0);

      Deno.env.set("EXECRET_CACHE", merged);
      const [final] = (await runEmbedStage({ ...base, invocationsPath: table2 })).configs;
      strictEqual(final.status, "written");
      strictEqual(final.embedded, 0);
      strictEqual(final.cached, 30);
      assertEquals(
        await contents(join(sharded, "embeddings", "tiny.arrow")),
        await contents(join(single, "embeddings", "tiny.arrow")),
      );
    } finally {
      for (const [k, v] of saved) {
        if (v === undefined) Deno.env.delete(k);
        else Deno.env.set(k, v);
      }
      await Deno.remove(root, { recursive: true });
    }
  },
});
