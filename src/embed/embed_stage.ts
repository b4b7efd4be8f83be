import { join } from "node:path";
import { pick, readTableRows } from "../io/arrow_table.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { embeddingsDir, tablePath } from "../io/paths.ts";
import { progress } from "../io/progress.ts";
import { UserError } from "../io/user_error.ts";
import { invocationFor } from "./invocations.ts";
import type { Invocation } from "./invocation.ts";
import { type DenseProvider, embedWithReport, type Role } from "./provider.ts";
import {
  isSparse,
  missingRequirements,
  providerEntry,
  providerFor,
  type ProviderOptions,
} from "./provider_registry.ts";
import { openVectorCache } from "./vector_cache.ts";
import { batchKeys, keyItems, planBatches, type PlannedBatch } from "./batch_plan.ts";
import { adoptPrefetched } from "./prefetch.ts";
import { type EmbeddingRow, writeEmbeddingFile } from "./embedding_file.ts";
import type { RequestStats } from "./http_client.ts";
import { type BatchStart, embedInWorkers, PARALLEL_PROVIDERS } from "./parallel_embed.ts";
import type { Shard } from "../common/shard.ts";

/** Options of {@link runEmbedStage}. */
export interface EmbedStageOptions {
  /** Config names from data/invocations.json. */
  configs: string[];
  /** Skip configs that cannot run here (missing key, server URL or model) with a warning. */
  skipUnavailable?: boolean;
  /** No progress lines. */
  quiet?: boolean;
  /** Provider options (tests pass their own env and fetch). */
  provider?: ProviderOptions;
  /** Path of the invocation table (default data/invocations.json). */
  invocationsPath?: string;
  /**
   * Worker processes for offline models (`use`), each with its own model
   * (default: the number of cores, capped by the number of batches). 1
   * embeds in this process. Files are byte-identical whatever the count.
   */
  workers?: number;
  /** Called as a worker process starts a batch (tests kill workers from here). */
  onWorkerBatch?: (start: BatchStart) => void;
  /**
   * Embed only the batches whose index (over every batch of the config,
   * cached or not) is `index` mod `count`, into the vector cache, and write
   * no file: a later unsharded run over the merged caches embeds nothing.
   */
  shard?: Shard;
}

/** What happened to one config. */
export interface EmbedConfigResult {
  config: string;
  /**
   * `written`: file written; `sparse`: scored at score time, no file;
   * `skipped`: unavailable; `sharded`: a shard's batches cached, no file.
   */
  status: "written" | "sparse" | "skipped" | "sharded";
  path?: string;
  rows?: number;
  dims?: number;
  /** Distinct texts embedded now, and those the cache already held. */
  embedded?: number;
  cached?: number;
  /** Distinct texts whose whole batch a background process embedded ahead of the stage. */
  prefetched?: number;
  seconds: number;
  /** Why a config was skipped. */
  missing?: string[];
  /** Hosted request counters (requests, retries, tokens, chars), when the provider keeps them. */
  requests?: RequestStats;
  /** Distinct texts whose vector came from a copy cut to the provider's per-input limit. */
  truncated?: number;
  /** Worker processes that embedded (1: in this process). */
  workers?: number;
}

/** Result of the embed stage. */
export interface EmbedStageResult {
  configs: EmbedConfigResult[];
}

interface Item {
  id: string;
  role: Role;
  text: string;
  key: string;
}

/**
 * The embed stage: for each dense config, embed every query (role `query`,
 * the `query` column of out/tables/queries.arrow) and pool snippet (role
 * `document`, the `code` column of out/tables/corpus.arrow), through the
 * vector cache, and write `out/embeddings/<config>.arrow`. Sparse configs
 * (bm25, tfidf) write nothing: the score stage calls
 * `providerFor(inv).score(queries, docs)` directly. The file's created_at is
 * the earliest fetch time of its vectors in the cache, so a rerun over the
 * same cache writes byte-identical files. Offline models (`use`) embed in
 * `workers` child processes (default: one per core), each taking whole
 * batches: the batches, and so the vectors, are those of a one-worker run.
 */
export async function runEmbedStage(options: EmbedStageOptions): Promise<EmbedStageResult> {
  const invs: Invocation[] = [];
  for (const name of options.configs) {
    try {
      invs.push(await invocationFor(name, options.invocationsPath, options.provider?.providers));
    } catch (e) {
      throw new UserError((e as Error).message);
    }
  }
  const results: EmbedConfigResult[] = [];
  let items: Omit<Item, "key">[] | undefined;
  for (const inv of invs) {
    const t0 = performance.now();
    if (isSparse(inv, options.provider?.providers)) {
      results.push({ config: inv.name, status: "sparse", seconds: 0 });
      continue;
    }
    items ??= await readItems();
    let result: EmbedConfigResult;
    try {
      result = await embedConfig(inv, items, options);
    } catch (e) {
      // What a hosted API answered (a quota reached, a key refused, a server
      // gone) is the user's to fix, in one line naming the config; the
      // batches it embedded are cached, so a rerun continues from there.
      if (!providerEntry(inv.provider, options.provider?.providers).hosted) throw e;
      if (e instanceof UserError) throw e;
      throw new UserError((e as Error).message.split("\n")[0]);
    }
    result.seconds = (performance.now() - t0) / 1000;
    results.push(result);
  }
  return { configs: results };
}

async function readItems(): Promise<Omit<Item, "key">[]> {
  const queries = await readTableRows(tablePath("queries"), pick(QUERIES, "query_id", "query"));
  const corpus = await readTableRows(tablePath("corpus"), pick(CORPUS, "corpus_id", "code"));
  const items: Omit<Item, "key">[] = [];
  for (const [i, q] of queries.entries()) {
    if (typeof q.query_id !== "string" || typeof q.query !== "string") {
      throw new UserError(`${tablePath("queries")}: row ${i} lacks query_id or query`);
    }
    items.push({ id: q.query_id, role: "query", text: q.query });
  }
  for (const [i, c] of corpus.entries()) {
    if (typeof c.corpus_id !== "string" || typeof c.code !== "string") {
      throw new UserError(`${tablePath("corpus")}: row ${i} lacks corpus_id or code`);
    }
    items.push({ id: c.corpus_id, role: "document", text: c.code });
  }
  return items;
}

async function embedConfig(
  inv: Invocation,
  raw: Omit<Item, "key">[],
  options: EmbedStageOptions,
): Promise<EmbedConfigResult> {
  const items = keyItems(inv, raw);
  const cache = await openVectorCache(inv.name);
  const plan = planBatches(inv, items);
  const dependent = !providerEntry(inv.provider, options.provider?.providers).hosted;
  // Each text's key in the cache: its own, or with its batch's identity.
  const stored = new Map<string, string>();
  const keysOf = new Map<PlannedBatch, string[]>();
  for (const batch of plan.batches) {
    const keys = batchKeys(batch, dependent);
    keysOf.set(batch, keys);
    batch.part.forEach((p, i) => stored.set(p.key, keys[i]));
  }
  let todo: PlannedBatch[] = [];
  // A shard takes every count-th batch of the fixed batching, so the shards'
  // segments together hold exactly the batches of an unsharded run.
  const shard = options.shard;
  plan.batches.forEach((batch, batchIndex) => {
    const mine = !shard || batchIndex % shard.count === shard.index;
    if (mine && keysOf.get(batch)!.some((k) => !cache.get(k))) todo.push(batch);
  });
  // Whole batches a background process embedded while the oracle ran (see prefetch.ts).
  const adopted = await adoptPrefetched(inv.name, todo, cache, dependent);
  todo = adopted.remaining;
  const pending = todo.reduce((n, t) => n + t.part.length, 0);
  const cached = plan.distinct - pending - adopted.texts;
  let requests: RequestStats | undefined;
  let workers = 1;
  if (pending > 0) {
    const missing = missingRequirements(inv, options.provider?.env, options.provider?.providers);
    if (missing.length > 0) {
      if (options.skipUnavailable) {
        console.error(`embed: skipping ${inv.name}: missing ${missing.join(", ")}`);
        return { config: inv.name, status: "skipped", missing, seconds: 0 };
      }
      throw new UserError(
        `${inv.name}: missing ${missing.join(", ")} (or pass --skip-unavailable)`,
      );
    }
    // Progress in characters: long texts cost more, and they come last (length order).
    const totalChars = todo.reduce((n, t) => n + t.part.reduce((m, it) => m + it.length, 0), 0);
    const bar = progress(`embed ${inv.name} (${pending} texts; chars)`, totalChars, {
      quiet: options.quiet,
    });
    workers = PARALLEL_PROVIDERS.includes(inv.provider)
      ? Math.max(1, Math.min(options.workers ?? navigator.hardwareConcurrency ?? 1, todo.length))
      : 1;
    if (workers > 1) {
      // Whole batches go to worker processes and come back under the same
      // keys, so the cache, and with it the file, is the same as in-process;
      // each batch is its own segment, written as it arrives.
      await embedInWorkers(
        inv,
        todo.map(({ role, part }) => ({ role, texts: part.map((p) => p.text) })),
        {
          workers,
          modelsDir: options.provider?.env?.EXECRET_MODELS,
          onStart: options.onWorkerBatch,
        },
        async (i, { vectors, truncated }) => {
          const { part } = todo[i];
          await cache.putBatch(keysOf.get(todo[i])!, vectors, truncated);
          bar.tick(part.reduce((n, it) => n + it.length, 0));
        },
      );
    } else {
      const provider = await providerFor(inv, options.provider) as DenseProvider & {
        stats?: RequestStats;
      };
      requests = provider.stats;
      // One cache segment per batch: a kill loses at most the batch in flight.
      for (const batch of todo) {
        const { role, part } = batch;
        const texts = part.map((p) => p.text);
        const { vectors, truncated } = await embedWithReport(provider, texts, role);
        await cache.putBatch(keysOf.get(batch)!, vectors, truncated);
        bar.tick(part.reduce((n, it) => n + it.length, 0));
      }
    }
    bar.done(
      requests
        ? `${requests.requests} requests, ${requests.retries} retries, ${requests.tokens} tokens${
          requests.truncated > 0 ? `, ${requests.truncated} inputs truncated` : ""
        }`
        : undefined,
    );
  }
  if (shard) {
    return {
      config: inv.name,
      status: "sharded",
      embedded: pending,
      cached,
      prefetched: adopted.texts,
      seconds: 0,
      requests,
      workers,
    };
  }
  const rows: EmbeddingRow[] = [];
  let createdAt = "";
  // Counted from the cache, not this run's requests, so a rerun writes the same number.
  const truncatedKeys = new Set<string>();
  for (const it of items) {
    const hit = cache.get(stored.get(it.key)!);
    if (!hit) throw new Error(`${inv.name}: no vector for ${it.role} ${it.id} after embedding`);
    rows.push({ id: it.id, role: it.role, vector: hit.vector });
    if (hit.truncated) truncatedKeys.add(it.key);
    if (createdAt === "" || hit.fetchedAt < createdAt) createdAt = hit.fetchedAt;
  }
  const path = join(embeddingsDir(), `${inv.name}.arrow`);
  // truncated_inputs only when some text was cut, so other runs keep their bytes.
  const extra: Record<string, string> = truncatedKeys.size > 0
    ? { truncated_inputs: String(truncatedKeys.size) }
    : {};
  await writeEmbeddingFile(path, inv, rows, createdAt, extra);
  return {
    config: inv.name,
    status: "written",
    path,
    rows: rows.length,
    dims: rows[0]?.vector.length ?? 0,
    embedded: pending,
    cached,
    prefetched: adopted.texts,
    seconds: 0,
    requests,
    truncated: truncatedKeys.size,
    workers,
  };
}
