import { type Invocation, roleParams, textToSend } from "./invocations.ts";
import type { DenseProvider, Role } from "./provider.ts";
import type { ResolvedOptions } from "./registry.ts";
import {
  inBatches,
  newStats,
  postJson,
  type RequestStats,
  type RetryOptions,
} from "./http_client.ts";
import { finishVectors } from "./vectors.ts";

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

/** Retry settings from the invocation (defaults: 60 s timeout, 6 retries, 1 s first backoff). */
export function retryOptions(inv: Invocation): RetryOptions {
  return {
    label: inv.name,
    timeoutMs: inv.timeout_ms ?? 60_000,
    maxRetries: inv.max_retries ?? 6,
    backoffMs: inv.backoff_ms ?? 1000,
    onRetry: (reason, delay, attempt) => {
      if (Deno.env.get("EXECRET_QUIET") !== "1") {
        console.error(
          `${inv.name}: retry ${attempt} in ${(delay / 1000).toFixed(1)} s (${
            reason.slice(0, 160)
          })`,
        );
      }
    },
  };
}

/**
 * A dense provider over a native HTTP API: batches of `batch_size` texts,
 * `concurrency` requests in flight, retries per {@link postJson}, every
 * answer checked by {@link finishVectors}.
 */
export function hostedProvider(
  inv: Invocation,
  o: ResolvedOptions,
  wire: WireFormat,
): HostedProvider {
  const stats = newStats();
  const retry = retryOptions(inv);
  const url = o.baseUrl + wire.path(inv);
  return {
    kind: "dense",
    stats,
    embed(texts, role) {
      const sent = texts.map((t) => textToSend(inv, t, role));
      return inBatches(sent, inv.batch_size ?? 32, inv.concurrency ?? 2, async (batch, start) => {
        const json = await postJson(
          o.fetch,
          url,
          wire.body(inv, batch, role),
          wire.headers(o.apiKey),
          retry,
          stats,
        );
        for (const t of batch) stats.chars += t.length;
        const { vectors, tokens } = wire.parse(json);
        stats.tokens += tokens;
        return finishVectors(inv, vectors, batch.length, `batch at ${role} ${start}`);
      });
    },
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
