import type OpenAI from "openai";
import { type Invocation, roleParams, textToSend } from "../invocation.ts";
import type { ResolvedOptions } from "../provider.ts";
import type { EmbedReport, Role } from "../provider.ts";
import { embedWithinLimits, type HostedProvider, parseDataList, retryOptions } from "../hosted.ts";
import { newStats, QuotaError, RetryableError, withRetries } from "../http_client.ts";
import { quotaExhausted, retryHint } from "../retry_hints.ts";
import { isTooLong, TooLongError } from "../too_long.ts";
import { finishVectors } from "../vectors.ts";
import { defineProvider } from "../provider_entry.ts";

/** The SDK's client class (the module loads only when an openai config runs). */
type OpenAISdk = typeof OpenAI;

/**
 * OpenAI `POST {baseURL}/embeddings` through the official `openai` SDK, so
 * any OpenAI-compatible server (vLLM, TEI, Ollama, LM Studio) works by
 * setting the base URL. The SDK's own retries are off so that one loop (the
 * kit's, shared with the native providers) counts and bounds them; it
 * applies the SDK's rules: `x-should-retry` first, then `retry-after-ms`,
 * then `Retry-After`. Batches stay within the config's request limits and a
 * too-long answer splits the batch or truncates the input
 * (`embedWithinLimits`). `sdk` is the `openai` package's default export.
 */
export function openaiProvider(
  inv: Invocation,
  o: ResolvedOptions,
  sdk: OpenAISdk,
): HostedProvider {
  const stats = newStats();
  const retry = retryOptions(inv);
  const client = new sdk({
    // Self-hosted servers often need no key, but the SDK insists on one.
    apiKey: o.apiKey || "unused",
    baseURL: o.baseUrl,
    fetch: o.fetch,
    maxRetries: 0,
    timeout: retry.timeoutMs,
  });
  const embedReport = (texts: string[], role: Role): Promise<EmbedReport> => {
    const sent = texts.map((t) => textToSend(inv, t, role));
    const params = roleParams(inv, role);
    return embedWithinLimits(
      inv,
      sent,
      role,
      async (batch, where) => {
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
            throw classify(e, inv, sdk);
          }
        }, stats);
        for (const t of batch) stats.chars += t.length;
        const { vectors, tokens } = parseDataList(res);
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

function classify(e: unknown, inv: Invocation, OpenAI: OpenAISdk): Error {
  if (e instanceof OpenAI.APIConnectionTimeoutError || e instanceof OpenAI.APIUserAbortError) {
    return new RetryableError(`no response in time (${(e as Error).message})`);
  }
  if (e instanceof OpenAI.APIConnectionError) {
    return new RetryableError(`connection failed: ${e.message}`, undefined, false, true);
  }
  if (e instanceof OpenAI.APIError && typeof e.status === "number") {
    const status = e.status;
    const body = `${e.message} ${JSON.stringify(e.error ?? null)}`;
    const message = `HTTP ${status}: ${e.message.slice(0, 200).replace(/\s+/g, " ")}`;
    const hint = retryHint(e.headers, body);
    // The SDK hands back the error object itself; the checks read it as the body would be.
    const quota = quotaExhausted(
      status,
      JSON.stringify({ error: e.error ?? null, message: e.message }),
      hint.afterMs !== undefined,
    );
    if (quota !== null) {
      return new QuotaError(
        `${inv.name}: ${inv.provider}: ${quota} (${message}); ` +
          "retrying will not help: add credit, raise the limit or wait for it to reset",
      );
    }
    if (hint.noRetry) {
      return new Error(`${inv.name}: ${message} (x-should-retry: false, not retried)`);
    }
    if (status === 429 || status === 408 || status === 409 || status >= 500 || hint.forceRetry) {
      return new RetryableError(message, hint.afterMs, status === 429);
    }
    if (isTooLong("openai", status, body)) return new TooLongError(message);
    return new Error(`${inv.name}: ${message}`);
  }
  if (e instanceof SyntaxError) return new RetryableError(`malformed JSON: ${e.message}`);
  return e as Error;
}

/**
 * Registry entry: hosted, dense; no public default endpoint (OpenAI or any
 * compatible server), so configs give `base_url` or `base_url_env`. Limits:
 * 2,048 inputs, 300,000 tokens summed per request, 8,192 per input
 * (platform.openai.com/docs/api-reference/embeddings/create).
 */
export const openaiEntry = defineProvider({
  name: "openai",
  kind: "dense",
  hosted: true,
  needsBaseUrl: true,
  libraries: ["openai"],
  limits: { texts: 2048, tokens_per_request: 300_000, tokens_per_input: 8192 },
  create: async (inv, o) => openaiProvider(inv, o, (await import("openai")).default),
});
