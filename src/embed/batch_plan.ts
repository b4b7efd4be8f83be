import { sha256Hex } from "../io/hash.ts";
import { type Invocation, textToSend } from "./invocation.ts";
import type { Role } from "./provider.ts";
import { roleSettingsDigest, vectorKey } from "./vector_cache.ts";

/** One text to embed under a role, with its vector-cache key. */
export interface KeyedItem {
  id: string;
  role: Role;
  text: string;
  key: string;
}

/** A distinct text of a batch, with the length of the text sent (the sort key). */
export interface PlannedItem extends KeyedItem {
  length: number;
}

/** One whole batch, as the embed stage sends it to a provider. */
export interface PlannedBatch {
  role: Role;
  part: PlannedItem[];
}

/**
 * Key each text by the exact text the config sends for its role (prefixes,
 * instructions), so the embed stage and anything filling its cache ahead of
 * it agree on the key.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { keyItems } from "./batch_plan.ts";
 * import { invocationFor } from "./invocations.ts";
 * const inv = await invocationFor("use");
 * const [item] = keyItems(inv, [{ id: "q1", role: "query", text: "add two numbers" }]);
 * strictEqual(item.key.length, 64);
 * ```
 */
export function keyItems(
  inv: Invocation,
  raw: readonly Omit<KeyedItem, "key">[],
): KeyedItem[] {
  const digests = {
    query: roleSettingsDigest(inv, "query"),
    document: roleSettingsDigest(inv, "document"),
  };
  return raw.map((it) => ({
    ...it,
    key: vectorKey(digests[it.role], textToSend(inv, it.text, it.role)),
  }));
}

/**
 * The embed stage's fixed batching: every distinct text per role (queries,
 * then documents), in length order, cut into batches of `batch_size ×
 * concurrency` over the whole text set, cached or not. Returns the batches
 * and the number of distinct keys.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { keyItems, planBatches } from "./batch_plan.ts";
 * import { invocationFor } from "./invocations.ts";
 * const inv = await invocationFor("use");
 * const items = keyItems(inv, [
 *   { id: "q1", role: "query", text: "reverse a string" },
 *   { id: "q2", role: "query", text: "add" },
 *   { id: "c1", role: "document", text: "def add(a, b):\n    return a + b" },
 * ]);
 * const { batches } = planBatches(inv, items);
 * deepStrictEqual(batches.map((b) => [b.role, b.part.map((p) => p.id)]), [
 *   ["query", ["q2", "q1"]],
 *   ["document", ["c1"]],
 * ]);
 * ```
 */
export function planBatches(
  inv: Invocation,
  items: readonly KeyedItem[],
): { batches: PlannedBatch[]; distinct: number } {
  // Every distinct text per role, in length order: similar lengths share a
  // batch, since local transformers pad every text to the batch's longest and
  // attention cost grows with the square of that length.
  const distinct: Record<Role, PlannedItem[]> = { query: [], document: [] };
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.key)) continue;
    seen.add(it.key);
    distinct[it.role].push({ ...it, length: textToSend(inv, it.text, it.role).length });
  }
  for (const list of Object.values(distinct)) {
    list.sort((a, b) => a.length - b.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  // Batch boundaries are fixed over the whole text set, cached or not, and a
  // batch is embedded whole or skipped whole: a resumed run then sends exactly
  // the batches an uninterrupted run would, so padding (and with it the last
  // bits of local models' vectors) cannot depend on where a kill landed.
  const chunk = (inv.batch_size ?? 32) * (inv.concurrency ?? 1);
  const batches: PlannedBatch[] = [];
  for (const role of ["query", "document"] as const) {
    const list = distinct[role];
    for (let s = 0; s < list.length; s += chunk) {
      batches.push({ role, part: list.slice(s, s + chunk) });
    }
  }
  return { batches, distinct: seen.size };
}

/** Identity of one batch: its role and its keys in order (what a provider is sent). */
export function batchDigest(batch: PlannedBatch): string {
  return sha256Hex(`${batch.role}\n${batch.part.map((p) => p.key).join("\n")}`);
}

/**
 * The vector-cache keys of a batch's texts. A model run here gives a text
 * other float32 bits in another batch (the Universal Sentence Encoder's
 * kernels, local transformers' padding: use_batch_invariance_test.ts), so
 * its vectors are cached under the text's key and the batch's identity: a
 * text met again in another batch (another profile's pool, other tasks) is
 * embedded again in that batch, and every run's files are those of a cold
 * run. A hosted API's vectors are cached per text, as what it returns is
 * out of our hands and each text is paid for once.
 *
 * @example
 * ```ts
 * import { notStrictEqual, strictEqual } from "node:assert/strict";
 * import { batchKeys, keyItems, planBatches } from "./batch_plan.ts";
 * import { invocationFor } from "./invocations.ts";
 * const inv = await invocationFor("use");
 * const items = keyItems(inv, [{ id: "q1", role: "query", text: "add two numbers" }]);
 * const [batch] = planBatches(inv, items).batches;
 * notStrictEqual(batchKeys(batch, true)[0], items[0].key);
 * strictEqual(batchKeys(batch, false)[0], items[0].key);
 * ```
 */
export function batchKeys(batch: PlannedBatch, batchDependent: boolean): string[] {
  if (!batchDependent) return batch.part.map((p) => p.key);
  const digest = batchDigest(batch);
  return batch.part.map((p) => sha256Hex(`${p.key}\n${digest}`));
}
