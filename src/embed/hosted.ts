import { type Invocation, roleParams, textToSend } from "./invocation.ts";
import type { DenseProvider, EmbedReport, RequestLimits, Role } from "./provider.ts";
import type { ResolvedOptions } from "./provider.ts";
import {
  HttpError,
  MAX_RETRIES,
  newStats,
  postJson,
  type RequestStats,
  RETRY_BUDGET_MS,
  type RetryOptions,
  type RetryState,
} from "./http_client.ts";
import { finishVectors } from "./vectors.ts";
import { packBatches, requestLimits, truncateToTokens } from "./request_budget.ts";
import { isTooLong, TooLongError } from "./too_long.ts";

/** A provider's wire format: how to ask for a batch and where the vectors are in the answer. */
export interface WireFormat {
  /** Path after the base URL (e.g. `/embeddings`). */
  path(inv: Invocation): string;
  /** Auth and other headers. */
  headers(apiKey: string): Record<string, string>;
  /** Request body for a batch of exact texts in a role. */
  body(inv: Invocation, texts: string[], role: Role): unknown;
  /** Vectors in input order and the tokens the provider billed (0 if unreported). */
  parse(json: unknown): { vectors: ArrayLike<number>[] | undefined; tokens: number };
}

/** A dense provider that also reports request counters. */
export interface HostedProvider extends DenseProvider {
  stats: RequestStats;
}

/**
 * Retry settings from the invocation (defaults: 60 s timeout, 20 retries,
 * 1 s first backoff, 5 min of waiting in all), with a progress line per
 * retry that says when it waits on a rate limit and how much of its budget
 * is left.
 */
export function retryOptions(inv: Invocation): RetryOptions {
  return {
    label: inv.name,
    provider: inv.provider,
    timeoutMs: inv.timeout_ms ?? 60_000,
    maxRetries: inv.max_retries ?? MAX_RETRIES,
    backoffMs: inv.backoff_ms ?? 1000,
    budgetMs: inv.retry_budget_ms ?? RETRY_BUDGET_MS,
    onRetry: (reason, delay, attempt, state) => {
      if (Deno.env.get("EXECRET_QUIET") !== "1") {
        console.error(retryLine(inv.name, reason, delay, attempt, state));
      }
    },
  };
}

/**
 * One progress line for a retry: a rate limit says so, with the wait and
 * what is left of the retry budget (a trial key can take minutes).
 */
export function retryLine(
  label: string,
  reason: string,
  delayMs: number,
  attempt: number,
  state: RetryState,
): string {
  const wait = `${(delayMs / 1000).toFixed(1)} s`;
  if (!state.rateLimited) return `${label}: retry ${attempt} in ${wait} (${reason.slice(0, 160)})`;
  const left = Math.max(0, state.budgetMs - state.waitedMs) / 1000;
  return `${label}: waiting on a rate limit (HTTP 429): retry ${attempt} in ${wait}, ` +
    `${left.toFixed(0)} s of the ${(state.budgetMs / 1000).toFixed(0)} s retry budget left`;
}

/**
 * Send one batch of exact texts and return its checked vectors; throws
 * {@link TooLongError} when the provider says the batch or its input is too long.
 */
export type BatchRequest = (batch: string[], where: string) => Promise<Float32Array[]>;

/**
 * Embed `texts` (already as sent) within the config's request limits:
 * batches packed by count and by a token upper bound ({@link packBatches}),
 * `concurrency` in flight. A batch the provider calls too long is split in
 * half and each half sent again; a single input it calls too long is cut to
 * `limits.tokens_per_input` ({@link truncateToTokens}) and sent once more,
 * and its index is reported as truncated. `defaults` are the provider's
 * documented limits, which the config's own `limits` override. Deterministic: the same texts give
 * the same requests.
 */
export async function embedWithinLimits(
  inv: Invocation,
  texts: readonly string[],
  role: Role,
  request: BatchRequest,
  stats: RequestStats,
  defaults: RequestLimits = {},
): Promise<EmbedReport> {
  const limits = requestLimits(inv, defaults);
  const work = texts.slice();
  const vectors: Float32Array[] = new Array(texts.length);
  const truncated: number[] = [];
  const run = async (start: number, end: number): Promise<void> => {
    try {
      const got = await request(work.slice(start, end), `batch at ${role} ${start}`);
      got.forEach((v, k) => vectors[start + k] = v);
      return;
    } catch (e) {
      if (!(e instanceof TooLongError)) throw e;
      if (end - start > 1) {
        // Halves, one after the other, so a split never raises the requests in flight.
        stats.splits++;
        const mid = start + Math.ceil((end - start) / 2);
        await run(start, mid);
        await run(mid, end);
        return;
      }
      const max = limits.tokens_per_input;
      const cut = max === undefined ? work[start] : truncateToTokens(work[start], max);
      if (truncated.includes(start) || cut.length === work[start].length) {
        throw new Error(
          `${inv.name}: a ${role} text of ${texts[start].length} chars is too long ${
            max === undefined
              ? "and the config sets no limits.tokens_per_input to cut it to"
              : `even cut to limits.tokens_per_input ${max}`
          } (${e.message})`,
        );
      }
      work[start] = cut;
      truncated.push(start);
      stats.truncated++;
      await run(start, end);
    }
  };
  const ranges = packBatches(work, inv.batch_size ?? 32, limits);
  let next = 0;
  const worker = async () => {
    while (next < ranges.length) {
      const [start, end] = ranges[next++];
      await run(start, end);
    }
  };
  const n = Math.min(inv.concurrency ?? 2, ranges.length);
  await Promise.all(Array.from({ length: n }, worker));
  return { vectors, truncated: truncated.sort((a, b) => a - b) };
}

/**
 * A dense provider over a native HTTP API: batches within the config's
 * request limits ({@link embedWithinLimits}), retries per {@link postJson},
 * every answer checked by {@link finishVectors}.
 */
export function hostedProvider(
  inv: Invocation,
  o: ResolvedOptions,
  wire: WireFormat,
): HostedProvider {
  const stats = newStats();
  const retry = retryOptions(inv);
  const url = o.baseUrl + wire.path(inv);
  const embedReport = (texts: string[], role: Role): Promise<EmbedReport> => {
    const sent = texts.map((t) => textToSend(inv, t, role));
    return embedWithinLimits(
      inv,
      sent,
      role,
      async (batch, where) => {
        let json: unknown;
        try {
          json = await postJson(
            o.fetch,
            url,
            wire.body(inv, batch, role),
            wire.headers(o.apiKey),
            retry,
            stats,
          );
        } catch (e) {
          if (e instanceof HttpError && isTooLong(inv.provider, e.status, e.body, o.tooLong)) {
            throw new TooLongError(
              `HTTP ${e.status}: ${e.body.slice(0, 200).replace(/\s+/g, " ")}`,
            );
          }
          throw e;
        }
        for (const t of batch) stats.chars += t.length;
        const { vectors, tokens } = wire.parse(json);
        stats.tokens += tokens;
        return finishVectors(inv, vectors, batch.length, where);
      },
      stats,
      o.limits,
    );
  };
  return {
    kind: "dense",
    stats,
    embedReport,
    embed: async (texts, role) => (await embedReport(texts, role)).vectors,
  };
}

/** Bearer-token header used by most APIs. */
export function bearer(apiKey: string): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/**
 * Vectors from an OpenAI-style answer `{data: [{embedding, index}], usage}`,
 * put back in input order by `index`.
 */
export function parseDataList(json: unknown): { vectors: number[][] | undefined; tokens: number } {
  const j = json as {
    data?: { embedding?: number[]; index?: number }[];
    usage?: { total_tokens?: number; prompt_tokens?: number };
  };
  if (!Array.isArray(j?.data)) return { vectors: undefined, tokens: 0 };
  const vectors: number[][] = new Array(j.data.length);
  for (const [i, item] of j.data.entries()) {
    const at = Number.isInteger(item?.index) ? item.index! : i;
    if (at < 0 || at >= j.data.length || vectors[at] !== undefined) {
      throw new Error(`response data has a bad or repeated index ${item?.index}`);
    }
    vectors[at] = item?.embedding as number[];
  }
  return { vectors, tokens: j.usage?.total_tokens ?? j.usage?.prompt_tokens ?? 0 };
}

/** Request body `{model, input, ...params}` shared by OpenAI-style APIs. */
export function inputBody(inv: Invocation, texts: string[], role: Role): unknown {
  return { model: inv.model, input: texts, ...roleParams(inv, role) };
}
