import type { Invocation, ProviderName, RequestLimits } from "./invocations.ts";

export type { RequestLimits };

/**
 * Documented defaults per hosted provider (the table's `limits` override them):
 * - openai: 2,048 inputs, 300,000 tokens summed per request, 8,192 per input
 *   (platform.openai.com/docs/api-reference/embeddings/create).
 * - voyage: 1,000 texts and 120,000 tokens per request for voyage-code-3,
 *   32,000-token context (docs.voyageai.com/reference/embeddings-api).
 * - mistral: 16,384 tokens per batch (its 400 reads "Too many tokens in
 *   batch. Max is 16384"), 8,192 per input (docs.mistral.ai).
 * - cohere: 96 texts per call (docs.cohere.com/reference/embed).
 * - gemini: 100 requests per batchEmbedContents call, 2,048 tokens per input
 *   for gemini-embedding-001 (ai.google.dev/gemini-api/docs/embeddings).
 * - jina: 8,192 tokens per input for jina-embeddings-v2 (jina.ai/embeddings).
 */
export const PROVIDER_LIMITS: Partial<Record<ProviderName, RequestLimits>> = {
  openai: { texts: 2048, tokens_per_request: 300_000, tokens_per_input: 8192 },
  voyage: { texts: 1000, tokens_per_request: 120_000, tokens_per_input: 32_000 },
  mistral: { tokens_per_request: 16_384, tokens_per_input: 8192 },
  cohere: { texts: 96 },
  gemini: { texts: 100, tokens_per_input: 2048 },
  jina: { tokens_per_input: 8192 },
};

/** The limits a config runs under: its own `limits` over its provider's defaults. */
export function requestLimits(inv: Invocation): RequestLimits {
  return { ...(PROVIDER_LIMITS[inv.provider] ?? {}), ...(inv.limits ?? {}) };
}

/**
 * Tokens counted per input on top of its text: special tokens (BOS/EOS, CLS)
 * and the prompts some APIs prepend themselves (Voyage's input_type prompt,
 * Jina's task instructions are about 12 tokens).
 */
export const INPUT_OVERHEAD_TOKENS = 32;

const encoder = new TextEncoder();

/**
 * An upper bound on the tokens a provider counts for `text`: its UTF-8 byte
 * length plus {@link INPUT_OVERHEAD_TOKENS}. Why bytes and not chars/3 or
 * chars/4: byte-level BPE (tiktoken, Qwen, Mistral's tekken) emits at most
 * one token per byte, and SentencePiece/WordPiece with byte fallback no more
 * than that, so a batch packed by this bound cannot exceed the provider's
 * budget, while chars/3 is an average that a line of operators or non-ASCII
 * text can beat. The price is batches about 3× smaller than the budget
 * allows for ASCII code, which matters only for token-bound APIs (Mistral).
 */
export function estimateTokens(text: string): number {
  return encoder.encode(text).length + INPUT_OVERHEAD_TOKENS;
}

/**
 * Split `texts` into consecutive batches, each holding at most `maxTexts`
 * texts and at most `limits.tokens_per_request` estimated tokens (a text
 * over that alone gets a batch of its own). Greedy in input order, so the
 * same texts always give the same batches. Returns `[start, end)` ranges.
 *
 * @example
 * ```ts
 * packBatches(["a", "b", "c"], 2, {}); // [[0, 2], [2, 3]]
 * ```
 */
export function packBatches(
  texts: readonly string[],
  maxTexts: number,
  limits: RequestLimits,
): [number, number][] {
  const budget = limits.tokens_per_request ?? Infinity;
  const cap = Math.max(1, Math.min(maxTexts, limits.texts ?? Infinity));
  const out: [number, number][] = [];
  let start = 0;
  let sum = 0;
  for (let i = 0; i < texts.length; i++) {
    const cost = estimateTokens(texts[i]);
    if (i > start && (i - start + 1 > cap || sum + cost > budget)) {
      out.push([start, i]);
      start = i;
      sum = 0;
    }
    sum += cost;
  }
  if (start < texts.length) out.push([start, texts.length]);
  return out;
}

/**
 * Cut `text` so that its estimate ({@link estimateTokens}) is at most
 * `tokens`: the longest prefix of whole code points within the byte budget.
 * Because the estimate bounds the provider's count, the cut text fits in
 * one step, with no second guess.
 */
export function truncateToTokens(text: string, tokens: number): string {
  const maxBytes = Math.max(0, tokens - INPUT_OVERHEAD_TOKENS);
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + n > maxBytes) break;
    bytes += n;
    end += ch.length;
  }
  return text.slice(0, end);
}
