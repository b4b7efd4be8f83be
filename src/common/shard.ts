import { createHash } from "node:crypto";

/** One shard of a run split over `count` machines: this run does part `index` (0-based). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parse `i/n` (0 ≤ i < n) as given to `--shard`; throws a one-line error
 * naming the bad value.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(parseShard("1/4"), { index: 1, count: 4 });
 * ```
 */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`--shard must be i/n (e.g. 0/4), got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index >= count) {
    throw new Error(`--shard ${text}: need 0 <= i < n`);
  }
  return { index, count };
}

/**
 * The shard an id belongs to among `count`: the first 4 bytes of its sha256
 * as an unsigned big-endian integer, mod `count`. A hash rather than a
 * position, so a task keeps its shard when others are added or removed.
 */
export function shardOf(id: string, count: number): number {
  const digest = createHash("sha256").update(id).digest();
  return digest.readUInt32BE(0) % count;
}

/** Whether an id falls in a shard (always, without one). */
export function inShard(id: string, shard: Shard | undefined): boolean {
  return shard === undefined || shardOf(id, shard.count) === shard.index;
}
