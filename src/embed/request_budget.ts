import type { Invocation } from "./invocation.ts";
import type { RequestLimits } from "./provider.ts";

/**
 * The limits a config runs under: its own `limits` over `defaults`, its
 * provider's documented ones (the `limits` of its registry entry).
 */
export function requestLimits(inv: Invocation, defaults: RequestLimits = {}): RequestLimits {
  return { ...defaults, ...(inv.limits ?? {}) };
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
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(packBatches(["a", "b", "c"], 2, {}), [[0, 2], [2, 3]]);
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
