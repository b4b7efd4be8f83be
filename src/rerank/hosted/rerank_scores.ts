import {
  HttpError,
  MAX_RETRIES,
  newStats,
  postJson,
  type RequestStats,
  RETRY_BUDGET_MS,
  type RetryOptions,
} from "../../embed/http_client.ts";
import { retryLine } from "../../embed/hosted.ts";
import { packBatches, truncateToTokens } from "../../embed/request_budget.ts";
import { isTooLong, TooLongError } from "../../embed/too_long.ts";
import {
  type HostedRerankerEntry,
  missingRerankerRequirements,
  rerankerBaseUrl,
} from "./rerankers_table.ts";
import { RERANK_WIRES, scoreSettings, scoresInInputOrder } from "./wire_formats.ts";
import { openScoreCache, type ScoreCache, scoreKey, scoreSettingsDigest } from "./score_cache.ts";

/** How {@link rerankScores} reaches the API and the cache. */
export interface RerankScoresOptions {
  /** fetch for the API calls (tests pass their own or point base_url_env at a loopback server). */
  fetch?: typeof fetch;
  /** Environment to read the key and URL from (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** Score cache; default the reranker's cache under `cacheDir()`; `false` for none. */
  cache?: ScoreCache | false;
  /** Suppress retry messages on stderr. */
  quiet?: boolean;
}

/** Relevance scores for one query's documents and what they cost. */
export interface RerankScores {
  /** One score per document, in input order (higher is more relevant). */
  scores: number[];
  /**
   * API calls the scores took, whether made now or read from the cache
   * (each cached score carries its share of its request), so reruns report
   * the same cost. Rounded to 1e-6 (shares of a split request are fractions).
   */
  calls: number;
  /** Tokens the provider reported for those calls, on the same terms. */
  tokens: number;
  /** Cohere's billed search units, on the same terms (0 for the others). */
  searchUnits: number;
  /** Counters of the HTTP requests made by this call (requests, retries, splits, truncated). */
  fetched: RequestStats;
  /** Documents whose scores came from the cache. */
  cached: number;
  /** Indices of documents cut to `limits.tokens_per_document` after the API called them too long. */
  truncated: number[];
}

/** Retry settings of a reranker (defaults as for an embedding config: see `retryOptions`). */
export function rerankRetryOptions(entry: HostedRerankerEntry, quiet = false): RetryOptions {
  return {
    label: entry.name,
    provider: entry.provider,
    timeoutMs: entry.timeout_ms ?? 60_000,
    maxRetries: entry.max_retries ?? MAX_RETRIES,
    backoffMs: entry.backoff_ms ?? 1000,
    budgetMs: entry.retry_budget_ms ?? RETRY_BUDGET_MS,
    onRetry: (reason, delay, attempt, state) => {
      if (quiet || Deno.env.get("EXECRET_QUIET") === "1") return;
      console.error(retryLine(entry.name, reason, delay, attempt, state));
    },
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Score every document against `query` with a hosted cross-encoder: scores
 * already in the cache are read back, the rest are sent in requests packed
 * within the entry's limits (documents per request; query + document tokens
 * per request, bounded by UTF-8 bytes), with the http client's timeouts and
 * retries (429 with retry-after-ms / Retry-After, 5xx, hangs, malformed
 * JSON; `x-should-retry: false` stops at once). The API returns results
 * sorted by score; they are mapped back by index and checked: every index
 * once and in range, every score finite, or a one-line error naming the
 * reranker. A request the API calls too long is split in half; a single
 * document it calls too long is cut to `limits.tokens_per_document` and
 * sent once more. Each answered request is cached before the next is sent.
 */
export async function rerankScores(
  entry: HostedRerankerEntry,
  query: string,
  documents: readonly string[],
  options: RerankScoresOptions = {},
): Promise<RerankScores> {
  const env = options.env ?? Deno.env.toObject();
  const missing = missingRerankerRequirements(entry, env);
  if (missing.length > 0) throw new Error(`${entry.name}: missing ${missing.join(", ")}`);
  const cache = options.cache === false
    ? undefined
    : options.cache ?? await openScoreCache(entry.name);
  const wire = RERANK_WIRES[entry.provider];
  const digest = scoreSettingsDigest(scoreSettings(entry));
  const keys = documents.map((d) => scoreKey(digest, query, d));
  const fetched = newStats();

  // Distinct documents no cache holds, in input order (a repeated document is sent once).
  const todo: number[] = [];
  const firstOf = new Map<string, number>();
  keys.forEach((key, i) => {
    if (firstOf.has(key)) return;
    firstOf.set(key, i);
    if (!cache?.get(key)) todo.push(i);
  });
  const todoKeys = new Set(todo.map((i) => keys[i]));
  const cachedCount = keys.filter((k) => !todoKeys.has(k)).length;

  const fresh = new Map<string, { score: number; calls: number; tokens: number; su: number }>();
  const truncatedKeys = new Set<string>();
  const url = `${rerankerBaseUrl(entry, env)}/rerank`;
  const headers = { authorization: `Bearer ${env[entry.key_env]}` };
  const retry = rerankRetryOptions(entry, options.quiet);
  const work = todo.map((i) => documents[i]);
  const cut = new Set<number>();

  const send = async (start: number, end: number): Promise<void> => {
    const batch = work.slice(start, end);
    const label = `${entry.name}: request of ${batch.length} documents at ${start}`;
    let json: unknown;
    try {
      json = await postJson(
        options.fetch ?? fetch,
        url,
        wire.body(entry, query, batch),
        headers,
        retry,
        fetched,
      );
    } catch (e) {
      if (e instanceof HttpError && isTooLong(entry.provider, e.status, e.body)) {
        throw new TooLongError(`HTTP ${e.status}: ${e.body.slice(0, 200).replace(/\s+/g, " ")}`);
      }
      throw e;
    }
    const answer = wire.parse(json);
    const scores = scoresInInputOrder(label, answer.results, batch.length);
    fetched.tokens += answer.tokens;
    for (const t of batch) fetched.chars += t.length;
    const batchKeys = todo.slice(start, end).map((i) => keys[i]);
    const n = batch.length;
    batchKeys.forEach((key, k) => {
      fresh.set(key, {
        score: scores[k],
        calls: 1 / n,
        tokens: answer.tokens / n,
        su: answer.searchUnits / n,
      });
    });
    await cache?.putBatch({
      keys: batchKeys,
      scores,
      calls: 1,
      tokens: answer.tokens,
      searchUnits: answer.searchUnits,
      truncated: batchKeys.map((_, k) => k).filter((k) => cut.has(start + k)),
    });
  };

  const run = async (start: number, end: number): Promise<void> => {
    try {
      return await send(start, end);
    } catch (e) {
      if (!(e instanceof TooLongError)) throw e;
      if (end - start > 1) {
        fetched.splits++;
        const mid = start + Math.ceil((end - start) / 2);
        await run(start, mid);
        await run(mid, end);
        return;
      }
      const max = entry.limits.tokens_per_document;
      const shorter = max === undefined ? work[start] : truncateToTokens(work[start], max);
      if (cut.has(start) || shorter.length === work[start].length) {
        throw new Error(
          `${entry.name}: document ${todo[start]} (${work[start].length} chars) is too long ${
            max === undefined
              ? "and the entry sets no limits.tokens_per_document to cut it to"
              : `even cut to limits.tokens_per_document ${max}`
          } (${e.message})`,
        );
      }
      work[start] = shorter;
      cut.add(start);
      truncatedKeys.add(keys[todo[start]]);
      fetched.truncated++;
      await run(start, end);
    }
  };

  // Pack by query + document: Voyage counts query tokens once per document.
  const ranges = packBatches(
    work.map((d) => `${query}\n${d}`),
    entry.limits.documents ?? Number.MAX_SAFE_INTEGER,
    { tokens_per_request: entry.limits.tokens_per_request },
  );
  for (const [start, end] of ranges) await run(start, end);

  let calls = 0, tokens = 0, searchUnits = 0;
  const truncated: number[] = [];
  const scores = keys.map((key, i) => {
    const got = fresh.get(key) ??
      (() => {
        const c = cache!.get(key)!;
        return { score: c.score, calls: c.calls, tokens: c.tokens, su: c.searchUnits };
      })();
    if (truncatedKeys.has(key) || cache?.get(key)?.truncated) truncated.push(i);
    if (firstOf.get(key) === i) {
      calls += got.calls;
      tokens += got.tokens;
      searchUnits += got.su;
    }
    return got.score;
  });
  return {
    scores,
    calls: round(calls, 6),
    tokens: round(tokens, 6),
    searchUnits: round(searchUnits, 6),
    fetched,
    cached: cachedCount,
    truncated,
  };
}
