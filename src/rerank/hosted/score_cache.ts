import { join } from "node:path";
import { atomicWrite } from "../../io/atomic_write.ts";
import { canonicalJson, sha256Hex } from "../../io/hash.ts";
import { cacheDir } from "../../io/paths.ts";

/**
 * A content-addressed store of relevance scores under
 * `cacheDir()/rerank_scores/<reranker>/`, so nothing paid for is fetched
 * twice. Each answered request becomes one JSON segment, written
 * atomically, so a killed run loses at most the request in flight. Why not
 * the vector cache: it stores float32, and a score rounded on its way
 * through the cache could order two snippets differently from the fresh
 * answer; JSON keeps the provider's float64 exactly.
 *
 * A score's key is the sha256 of (the reranker's score-shaping settings,
 * sha256 of the query, sha256 of the document). Each key also carries its
 * share of what its request cost (calls and tokens divided by the
 * documents in it), so the cost of a ranking is the same whether its
 * scores were fetched now or read back.
 *
 * Segment: `{fetched_at, calls, tokens, search_units, keys, scores, truncated}`.
 */
export interface ScoreCache {
  /** Folder of this reranker's segments. */
  dir: string;
  get(key: string): CachedScore | undefined;
  /** Store one answered request: its keys, their scores, what it cost, which documents were cut. */
  putBatch(batch: ScoreBatch): Promise<void>;
  /** Number of distinct keys held. */
  size(): number;
}

/** One answered request, as stored. */
export interface ScoreBatch {
  keys: string[];
  scores: number[];
  /** API calls the answer took (1; retries are not billed). */
  calls: number;
  tokens: number;
  searchUnits: number;
  /** Indices (into keys) of documents cut to the per-document limit before sending. */
  truncated: number[];
}

/** A score from the cache with its share of the request's cost. */
export interface CachedScore {
  score: number;
  calls: number;
  tokens: number;
  searchUnits: number;
  fetchedAt: string;
  truncated: boolean;
}

/** Digest of the settings that shape a reranker's scores (provider, model, native fields). */
export function scoreSettingsDigest(settings: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(settings));
}

/** Cache key of one (query, document) pair under a settings digest. */
export function scoreKey(settingsDigest: string, query: string, document: string): string {
  return sha256Hex(`${settingsDigest}\n${sha256Hex(query)}\n${sha256Hex(document)}`);
}

const opened = new Map<string, Promise<ScoreCache>>();

/**
 * Open (creating if needed) a reranker's score cache and load its segments;
 * one load per folder and process (`reload` reads the folder again, as a
 * new process would). When two segments hold a key, the
 * earlier fetch wins, so the result does not depend on directory order.
 */
export function openScoreCache(
  reranker: string,
  root = cacheDir(),
  { reload = false } = {},
): Promise<ScoreCache> {
  const dir = join(root, "rerank_scores", reranker);
  let p = reload ? undefined : opened.get(dir);
  if (!p) {
    p = loadScoreCache(dir);
    opened.set(dir, p);
    p.catch(() => opened.delete(dir));
  }
  return p;
}

async function loadScoreCache(dir: string): Promise<ScoreCache> {
  await Deno.mkdir(dir, { recursive: true });
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".json")) names.push(e.name);
  }
  names.sort();
  const map = new Map<string, CachedScore>();
  const add = (seg: Segment) => {
    const n = seg.keys.length;
    const cut = new Set(seg.truncated ?? []);
    seg.keys.forEach((key, i) => {
      const old = map.get(key);
      if (old && old.fetchedAt <= seg.fetched_at) return;
      map.set(key, {
        score: seg.scores[i],
        calls: seg.calls / n,
        tokens: seg.tokens / n,
        searchUnits: seg.search_units / n,
        fetchedAt: seg.fetched_at,
        truncated: cut.has(i),
      });
    });
  };
  for (const name of names) {
    try {
      add(checkSegment(JSON.parse(await Deno.readTextFile(join(dir, name)))));
    } catch (e) {
      console.error(
        `${join(dir, name)}: ignoring unreadable score segment (${(e as Error).message})`,
      );
    }
  }
  return {
    dir,
    get: (key) => map.get(key),
    size: () => map.size,
    async putBatch(b) {
      if (b.keys.length === 0) return;
      const seg: Segment = {
        fetched_at: new Date().toISOString(),
        calls: b.calls,
        tokens: b.tokens,
        search_units: b.searchUnits,
        keys: b.keys,
        scores: b.scores,
        truncated: b.truncated,
      };
      const name = `${sha256Hex(b.keys.join("\n")).slice(0, 24)}-${
        seg.fetched_at.replace(/[:.]/g, "")
      }.json`;
      await atomicWrite(join(dir, name), JSON.stringify(seg) + "\n");
      add(seg);
    },
  };
}

interface Segment {
  fetched_at: string;
  calls: number;
  tokens: number;
  search_units: number;
  keys: string[];
  scores: number[];
  truncated?: number[];
}

function checkSegment(raw: unknown): Segment {
  const s = raw as Segment;
  if (
    typeof s?.fetched_at !== "string" || !Array.isArray(s.keys) || !Array.isArray(s.scores) ||
    s.keys.length !== s.scores.length || !s.scores.every((x) => Number.isFinite(x)) ||
    ![s.calls, s.tokens, s.search_units].every((x) => typeof x === "number")
  ) {
    throw new Error("not a score segment");
  }
  return s;
}
