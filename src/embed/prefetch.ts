/**
 * Embedding queries before the oracle has decided which tasks stay. The
 * oracle only drops tasks (a canonical that fails or is flaky), so the
 * queries are known up to those drops as soon as the tasks table exists.
 * Offline models' vectors depend on the batch a text is embedded in (the
 * Universal Sentence Encoder gives other bits for a text alone than in a
 * batch of 64: use_batch_invariance_test.ts), so nothing embedded here goes
 * into the vector cache directly: each whole batch of the embed stage's
 * fixed batching, planned over every task's query, becomes one segment
 * under `cacheDir()/prefetch/<config>/<batch digest>.seg`, and the embed
 * stage adopts a segment only for a batch of its own with exactly the same
 * keys in the same order. With every canonical kept that is every query
 * batch; a dropped task shifts the boundaries after it, and those batches
 * are embedded by the stage as before. Either way the vectors, and the
 * files, are those of a run without this step.
 *
 * Run as a program (`deno run -A src/embed/prefetch.ts <config>...`), it
 * prints one JSON line per batch it embedded; the pipeline starts it at the
 * lowest CPU priority while the oracle runs and stops it when the oracle is
 * done.
 */
import { join } from "node:path";
import { pick, readTableRows } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { fileExists } from "../io/file_exists.ts";
import { cacheDir, tablePath } from "../io/paths.ts";
import { TASKS } from "../tables/schema.ts";
import { batchDigest, batchKeys, keyItems, planBatches, type PlannedBatch } from "./batch_plan.ts";
import { invocationFor } from "./invocations.ts";
import type { Invocation } from "./invocation.ts";
import { type DenseProvider, embedWithReport } from "./provider.ts";
import { isSparse, providerEntry, providerFor, type ProviderOptions } from "./provider_registry.ts";
import { decodeSegment, encodeSegment, openVectorCache, type VectorCache } from "./vector_cache.ts";

/** Folder of one config's prefetched batches. */
export function prefetchDir(config: string): string {
  return join(cacheDir(), "prefetch", config);
}

/** Where a prefetch keeps one batch of a config. */
function segmentPath(config: string, batch: PlannedBatch): string {
  return join(prefetchDir(config), `${batchDigest(batch)}.seg`);
}

/** Options of {@link prefetchQueries}. */
export interface PrefetchOptions {
  /** Config names from the invocation table; hosted and sparse ones are passed over. */
  configs: string[];
  /** Path of the invocation table (default data/invocations.json). */
  invocationsPath?: string;
  /** Provider options (tests pass their own env). */
  provider?: ProviderOptions;
  /** Called after each batch is stored. */
  onBatch?: (config: string, texts: number) => void;
  /**
   * Asked after each batch is embedded, before it is stored: when it says
   * yes, nothing more is written and the call returns.
   */
  abandoned?: () => boolean;
}

/**
 * Embed, in this process, every query batch the embed stage would send if
 * every task in out/tables/tasks.arrow kept its query, for each offline
 * dense config, skipping batches the vector cache or the prefetch folder
 * already holds. Hosted configs are passed over: a query the oracle drops
 * would be paid for and never used. Returns the texts embedded per config.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { prefetchQueries } from "./prefetch.ts";
 * // Sparse configs embed nothing (a run with `use` would return { use: <texts> }).
 * deepStrictEqual(await prefetchQueries({ configs: ["bm25", "tfidf"] }), {});
 * ```
 */
export async function prefetchQueries(options: PrefetchOptions): Promise<Record<string, number>> {
  const providers = options.provider?.providers;
  const invs: Invocation[] = [];
  for (const name of options.configs) {
    const inv = await invocationFor(name, options.invocationsPath, providers);
    if (!isSparse(inv, providers) && !providerEntry(inv.provider, providers).hosted) invs.push(inv);
  }
  const done: Record<string, number> = {};
  if (invs.length === 0) return done;
  const tasks = await readTableRows(tablePath("tasks"), pick(TASKS, "task_id", "query"));
  const raw = tasks.map((t) => ({
    id: String(t.task_id),
    role: "query" as const,
    text: String(t.query),
  }));
  for (const inv of invs) {
    const cache = await openVectorCache(inv.name);
    const todo: PlannedBatch[] = [];
    // Prefetched configs are offline models, whose vectors depend on their batch.
    for (const batch of planBatches(inv, keyItems(inv, raw)).batches) {
      if (batchKeys(batch, true).every((k) => cache.get(k))) continue;
      if (await fileExists(segmentPath(inv.name, batch))) continue;
      todo.push(batch);
    }
    done[inv.name] = 0;
    if (todo.length === 0) continue;
    const provider = await providerFor(inv, options.provider) as DenseProvider;
    for (const batch of todo) {
      const texts = batch.part.map((p) => p.text);
      const { vectors, truncated } = await embedWithReport(provider, texts, batch.role);
      if (options.abandoned?.()) return done;
      const keys = batch.part.map((p) => p.key);
      const bytes = encodeSegment(keys, vectors, new Date().toISOString(), truncated);
      // Atomic: a process stopped mid-write leaves no segment to adopt.
      await atomicWrite(segmentPath(inv.name, batch), bytes);
      done[inv.name] += texts.length;
      options.onBatch?.(inv.name, texts.length);
    }
  }
  return done;
}

/**
 * Move into `cache` every batch of `todo` that a prefetch embedded with
 * exactly the same keys in the same order, and return the batches still to
 * embed and the number of texts adopted. A segment that cannot be read, or
 * whose keys differ, is passed over (the stage embeds that batch itself).
 */
export async function adoptPrefetched(
  config: string,
  todo: readonly PlannedBatch[],
  cache: VectorCache,
  batchDependent: boolean,
): Promise<{ remaining: PlannedBatch[]; texts: number }> {
  const remaining: PlannedBatch[] = [];
  let texts = 0;
  for (const batch of todo) {
    const path = segmentPath(config, batch);
    let seg: ReturnType<typeof decodeSegment> | undefined;
    try {
      seg = decodeSegment(await Deno.readFile(path));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        console.error(`${path}: ignoring unreadable prefetched batch (${(e as Error).message})`);
      }
    }
    const keys = batch.part.map((p) => p.key);
    if (!seg || seg.keys.length !== keys.length || seg.keys.some((k, i) => k !== keys[i])) {
      remaining.push(batch);
      continue;
    }
    await cache.putBatch(batchKeys(batch, batchDependent), seg.vectors, seg.truncated);
    texts += keys.length;
  }
  return { remaining, texts };
}

if (import.meta.main) {
  // A parent killed mid-oracle (SIGKILL leaves no chance to stop us) must not
  // leave this process embedding for nobody: exit once it is re-parented.
  // The timer cannot fire during a batch, and at nice 19 on a busy machine a
  // batch can take a minute: so a batch finished after the parent died is
  // not written either (the parent's folder may be being removed by then).
  const parent = Deno.ppid;
  const orphaned = () => Deno.ppid !== parent;
  Deno.unrefTimer(setInterval(() => orphaned() && Deno.exit(0), 1000));
  await prefetchQueries({
    configs: Deno.args,
    onBatch: (config, texts) => console.log(JSON.stringify({ config, texts })),
    abandoned: orphaned,
  });
}
