import { join } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { canonicalJson, sha256Hex } from "../io/hash.ts";
import { cacheDir } from "../io/paths.ts";
import { type Invocation, roleParams } from "./invocation.ts";
import type { Role } from "./provider.ts";

/**
 * A content-addressed store of vectors under `cacheDir()/vectors/<config>/`.
 * Each embedded batch becomes one segment file, written atomically, so a
 * killed run loses at most the batch in flight and a rerun fetches only
 * what no segment holds. A vector's key is the sha256 of (provider, model,
 * the role's vector-affecting settings, sha256 of the exact text sent).
 *
 * Segment layout: `EXVC1\n`, u32 LE header length, header JSON
 * `{dims, keys, fetched_at}` plus `truncated` (indices of keys whose text
 * was cut to the provider's per-input limit; only when there are any, so
 * other segments keep their bytes), zero padding to a 4-byte boundary, then
 * `keys.length * dims` float32 LE values.
 */
export interface VectorCache {
  /** Folder of this config's segments. */
  dir: string;
  /** The cached vector for a key and when it was fetched (ISO time). */
  get(key: string): CachedVector | undefined;
  /** Store one batch as a new segment; `truncated` lists indices of keys whose text was cut. */
  putBatch(keys: string[], vectors: Float32Array[], truncated?: readonly number[]): Promise<void>;
  /** Number of distinct keys held. */
  size(): number;
}

/** A vector from the cache. */
export interface CachedVector {
  vector: Float32Array;
  fetchedAt: string;
  /** The provider embedded a truncated copy of the text. */
  truncated?: boolean;
}

const MAGIC = new TextEncoder().encode("EXVC1\n");

/** Digest of the settings that shape a role's vectors (the text itself is keyed separately). */
export function roleSettingsDigest(inv: Invocation, role: Role): string {
  return sha256Hex(canonicalJson({
    provider: inv.provider,
    model: inv.model,
    dims: inv.dims ?? null,
    normalize: inv.normalize,
    pooling: inv.pooling ?? null,
    dtype: inv.dtype ?? null,
    params: roleParams(inv, role),
  }));
}

/** Cache key of one exact text sent under a role's settings digest. */
export function vectorKey(settingsDigest: string, sentText: string): string {
  return sha256Hex(`${settingsDigest}\n${sha256Hex(sentText)}`);
}

/** Encode a segment (see {@link VectorCache} for the layout). */
export function encodeSegment(
  keys: string[],
  vectors: Float32Array[],
  fetchedAt: string,
  truncated: readonly number[] = [],
): Uint8Array {
  const dims = vectors[0]?.length ?? 0;
  const head: Record<string, unknown> = { dims, keys, fetched_at: fetchedAt };
  if (truncated.length > 0) head.truncated = [...truncated];
  const header = new TextEncoder().encode(JSON.stringify(head));
  const start = MAGIC.length + 4 + header.length;
  const dataStart = Math.ceil(start / 4) * 4;
  const bytes = new Uint8Array(dataStart + keys.length * dims * 4);
  bytes.set(MAGIC, 0);
  new DataView(bytes.buffer).setUint32(MAGIC.length, header.length, true);
  bytes.set(header, MAGIC.length + 4);
  const view = new DataView(bytes.buffer, dataStart);
  for (let i = 0; i < vectors.length; i++) {
    if (vectors[i].length !== dims) {
      throw new Error(`segment: vector ${i} has ${vectors[i].length} dims, not ${dims}`);
    }
    for (let j = 0; j < dims; j++) view.setFloat32((i * dims + j) * 4, vectors[i][j], true);
  }
  return bytes;
}

/** Decode a segment; throws on a malformed one. */
export function decodeSegment(
  bytes: Uint8Array,
): { keys: string[]; vectors: Float32Array[]; fetchedAt: string; truncated: number[] } {
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i]) throw new Error("not a vector segment");
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = dv.getUint32(MAGIC.length, true);
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength)),
  ) as { dims: number; keys: string[]; fetched_at: string; truncated?: number[] };
  const dataStart = Math.ceil((MAGIC.length + 4 + headerLength) / 4) * 4;
  const { dims, keys } = header;
  if (bytes.length !== dataStart + keys.length * dims * 4) {
    throw new Error("segment length mismatch");
  }
  const vectors = keys.map((_, i) => {
    const v = new Float32Array(dims);
    for (let j = 0; j < dims; j++) v[j] = dv.getFloat32(dataStart + (i * dims + j) * 4, true);
    return v;
  });
  return { keys, vectors, fetchedAt: header.fetched_at, truncated: header.truncated ?? [] };
}

/**
 * Open (creating if needed) the vector cache of a config and load every
 * segment. When two segments hold the same key, the earlier fetch wins, so
 * the result does not depend on directory order.
 */
export async function openVectorCache(config: string, root = cacheDir()): Promise<VectorCache> {
  const dir = join(root, "vectors", config);
  await Deno.mkdir(dir, { recursive: true });
  const entries: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".seg")) entries.push(e.name);
  }
  entries.sort();
  const map = new Map<string, CachedVector>();
  for (const name of entries) {
    let seg;
    try {
      seg = decodeSegment(await Deno.readFile(join(dir, name)));
    } catch (e) {
      console.error(
        `${join(dir, name)}: ignoring unreadable vector segment (${(e as Error).message})`,
      );
      continue;
    }
    const cut = new Set(seg.truncated);
    seg.keys.forEach((key, i) => {
      const old = map.get(key);
      if (!old || seg.fetchedAt < old.fetchedAt) {
        map.set(key, cached(seg.vectors[i], seg.fetchedAt, cut.has(i)));
      }
    });
  }
  return {
    dir,
    get: (key) => map.get(key),
    size: () => map.size,
    async putBatch(keys, vectors, truncated = []) {
      if (keys.length === 0) return;
      const fetchedAt = new Date().toISOString();
      const bytes = encodeSegment(keys, vectors, fetchedAt, truncated);
      const name = `${sha256Hex(keys.join("\n")).slice(0, 24)}-${
        fetchedAt.replace(/[:.]/g, "")
      }.seg`;
      await atomicWrite(join(dir, name), bytes);
      const cut = new Set(truncated);
      keys.forEach((key, i) => {
        if (!map.has(key)) map.set(key, cached(vectors[i], fetchedAt, cut.has(i)));
      });
    },
  };
}

function cached(vector: Float32Array, fetchedAt: string, truncated: boolean): CachedVector {
  return truncated ? { vector, fetchedAt, truncated } : { vector, fetchedAt };
}
