import OpenAI from "openai";
import { type Invocation, roleParams, textToSend } from "../invocations.ts";
import type { ResolvedOptions } from "../registry.ts";
import { type HostedProvider, parseDataList, retryOptions } from "../hosted.ts";
import {
  inBatches,
  newStats,
  parseRetryAfter,
  RetryableError,
  withRetries,
} from "../http_client.ts";
import { finishVectors } from "../vectors.ts";

/**
 * OpenAI `POST {baseURL}/embeddings` through the official `openai` SDK, so
 * any OpenAI-compatible server (vLLM, TEI, Ollama, LM Studio) works by
 * setting the base URL. The SDK's own retries are off: the kit's retry loop
 * (same policy as the native providers) decides, honouring Retry-After.
 */
export function openaiProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  const stats = newStats();
  const retry = retryOptions(inv);
  const client = new OpenAI({
    // Self-hosted servers often need no key, but the SDK insists on one.
    apiKey: o.apiKey || "unused",
    baseURL: o.baseUrl,
    fetch: o.fetch,
    maxRetries: 0,
    timeout: retry.timeoutMs,
  });
  return {
    kind: "dense",
    stats,
    embed(texts, role) {
      const sent = texts.map((t) => textToSend(inv, t, role));
      const params = roleParams(inv, role);
      return inBatches(sent, inv.batch_size ?? 64, inv.concurrency ?? 2, async (batch, start) => {
        const res = await withRetries(retry, async (signal) => {
          try {
            const res = await client.embeddings.create(
              { model: inv.model, input: batch, ...params } as OpenAI.EmbeddingCreateParams,
              { signal },
            );
            // A non-JSON body comes back from the SDK as a bare string.
            if (!res || typeof res !== "object" || !Array.isArray(res.data)) {
              throw new RetryableError(`malformed response: ${String(res).slice(0, 80)}`);
            }
            return res;
          } catch (e) {
            if (e instanceof RetryableError) throw e;
            throw classify(e);
          }
        }, stats);
        for (const t of batch) stats.chars += t.length;
        const { vectors, tokens } = parseDataList(res);
        stats.tokens += tokens;
        return finishVectors(inv, vectors, batch.length, `batch at ${role} ${start}`);
      });
    },
  };
}

function classify(e: unknown): Error {
  if (e instanceof OpenAI.APIConnectionTimeoutError || e instanceof OpenAI.APIUserAbortError) {
    return new RetryableError(`no response in time (${(e as Error).message})`);
  }
  if (e instanceof OpenAI.APIConnectionError) {
    return new RetryableError(`connection failed: ${e.message}`);
  }
  if (e instanceof OpenAI.APIError && typeof e.status === "number") {
    const status = e.status;
    const message = `HTTP ${status}: ${e.message.slice(0, 200)}`;
    if (status === 429 || status === 408 || status === 409 || status >= 500) {
      const after = status === 429 || status === 503
        ? parseRetryAfter(e.headers?.get("retry-after") ?? null)
        : undefined;
      return new RetryableError(message, after);
    }
    return new Error(message);
  }
  if (e instanceof SyntaxError) return new RetryableError(`malformed JSON: ${e.message}`);
  return e as Error;
}
