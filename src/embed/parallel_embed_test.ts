import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { embedCommand } from "../cli/commands/embed.ts";
import { withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { invocationFor } from "./invocations.ts";
import { embedInWorkers } from "./parallel_embed.ts";
import { runEmbedStage } from "./embed_stage.ts";
import { decodeSegment, encodeSegment } from "./vector_cache.ts";

// The kit's own USE entry with small batches, so ~60 texts make several batches.
const USE = {
  name: "use-small",
  provider: "use",
  model: "universal-sentence-encoder-energetic-ai-0.2.0",
  similarity: "cosine",
  dims: 512,
  normalize: true,
  batch_size: 8,
  query: {},
  document: {},
  doc: "https://www.npmjs.com/package/@energetic-ai/embeddings",
};

const OPS = ["+", "-", "*", "//", "%"];

/** 12 queries and 48 snippets (single-edit variants, as in the benchmark). */
async function setup(): Promise<{ out: string; table: string }> {
  const out = await Deno.makeTempDir({ prefix: "execret-parallel-embed-" });
  Deno.env.set("EXECRET_OUT", out);
  const queries = [];
  const corpus = [];
  for (let t = 0; t < 12; t++) {
    queries.push({ query_id: `t/${t}`, task_id: `t/${t}`, query: `combine ${t} with a number` });
    for (let v = 0; v < 4; v++) {
      const body = `def f${t}(x):\n    y = x ${OPS[(t + v) % OPS.length]} ${t + 1}\n` +
        "    return y".padEnd(12 + (t % 5) * 7, " ") + "\n";
      corpus.push({ corpus_id: `c${t}.${v}`, task_id: `t/${t}`, code: body });
    }
  }
  await writeTable("queries", withNulls(QUERIES, queries), QUERIES, { parquet: false });
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS, { parquet: false });
  const table = join(out, "invocations.json");
  await Deno.writeTextFile(table, JSON.stringify({ invocations: [USE] }));
  return { out, table };
}

/**
 * Embed with a cache of its own, then give every segment the same fetch time
 * and rewrite the file from that cache: the file's bytes then depend only on
 * the vectors, ids and metadata, not on when the run happened.
 */
async function embedFile(
  out: string,
  table: string,
  cacheName: string,
  workers: number,
  onWorkerBatch?: (s: { batch: number; attempt: number; pid: number }) => void,
): Promise<{ bytes: Uint8Array; workers?: number; embedded?: number }> {
  Deno.env.set("EXECRET_CACHE", join(out, cacheName));
  const run = await runEmbedStage({
    configs: ["use-small"],
    quiet: true,
    invocationsPath: table,
    workers,
    onWorkerBatch,
  });
  const segDir = join(out, cacheName, "vectors", "use-small");
  for await (const e of Deno.readDir(segDir)) {
    const path = join(segDir, e.name);
    const seg = decodeSegment(await Deno.readFile(path));
    await Deno.writeFile(
      path,
      encodeSegment(seg.keys, seg.vectors, "2026-01-01T00:00:00.000Z", seg.truncated),
    );
  }
  const again = await runEmbedStage({
    configs: ["use-small"],
    quiet: true,
    invocationsPath: table,
    workers,
  });
  strictEqual(again.configs[0].embedded, 0);
  const bytes = await Deno.readFile(join(out, "embeddings", "use-small.arrow"));
  return { bytes, workers: run.configs[0].workers, embedded: run.configs[0].embedded };
}

Deno.test("use embeds byte-identically in 1 and 2 worker processes, and after a worker is killed mid-batch", async () => {
  const savedOut = Deno.env.get("EXECRET_OUT");
  const savedCache = Deno.env.get("EXECRET_CACHE");
  const { out, table } = await setup();
  try {
    const one = await embedFile(out, table, "cache-1", 1);
    strictEqual(one.workers, 1);
    strictEqual(one.embedded, 60);

    // Two workers, one of them killed while embedding the third batch handed
    // out, 50 ms in: a fresh worker redoes it. (One run serves both checks,
    // 2 workers and a kill; each worker run loads the model anew.)
    const starts: { batch: number; attempt: number; pid: number }[] = [];
    let victim: { batch: number; pid: number } | undefined;
    const two = await embedFile(out, table, "cache-2", 2, (s) => {
      starts.push(s);
      if (starts.length === 3) {
        victim = { batch: s.batch, pid: s.pid };
        setTimeout(() => Deno.kill(s.pid, "SIGKILL"), 50);
      }
    });
    strictEqual(two.workers, 2);
    strictEqual(two.embedded, 60);
    // 12 queries → 2 batches of 8, 48 snippets → 6: every batch started once,
    // over two processes, and the killed one once more.
    const first = starts.filter((s) => s.attempt === 0);
    assertEquals(first.map((s) => s.batch).sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7]);
    ok(new Set(first.map((s) => s.pid)).size >= 2, JSON.stringify(starts));
    ok(victim);
    const retry = starts.filter((s) => s.batch === victim!.batch);
    assertEquals(retry.map((s) => s.attempt), [0, 1]);
    ok(retry[1].pid !== victim.pid, "the retry runs in a fresh process");
    strictEqual(starts.length, 9);
    assertEquals(two.bytes, one.bytes);
  } finally {
    if (savedOut === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", savedOut);
    if (savedCache === undefined) Deno.env.delete("EXECRET_CACHE");
    else Deno.env.set("EXECRET_CACHE", savedCache);
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a batch whose worker keeps dying fails the run after the retries, naming the batch", async () => {
  const inv = { ...(await invocationFor("use")), name: "use-doomed" };
  const batches = [{ role: "query" as const, texts: ["sort a list", "reverse a string"] }];
  const pids: number[] = [];
  await rejects(
    embedInWorkers(inv, batches, {
      workers: 2,
      maxRetries: 1,
      onStart: (s) => {
        pids.push(s.pid);
        Deno.kill(s.pid, "SIGKILL");
      },
    }, () => Promise.resolve()),
    /^Error: use-doomed: query batch 0: worker died 2 times \(embed worker \d+ exited \(SIGKILL\)/,
  );
  strictEqual(pids.length, 2);
  strictEqual(new Set(pids).size, 2);
});

Deno.test("execret embed --workers takes a positive integer only", async () => {
  for (const bad of ["0", "2.5", "many"]) {
    await rejects(
      embedCommand.run(["--config", "use", "--workers", bad]),
      new RegExp(`^UserError: --workers must be a positive integer, got "${bad}"$`),
    );
  }
});
