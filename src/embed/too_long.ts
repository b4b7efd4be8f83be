/**
 * What each hosted API says when a request or one of its inputs is too
 * long, as its documentation and its users' reports quote it:
 * - openai: `Requested 453357 tokens, max 300000 tokens per request`
 *   (code `max_tokens_per_request`); `This model's maximum context length is
 *   8192 tokens, however you requested ...`; OpenAI-compatible servers:
 *   vLLM the same wording, TEI `must have less than 512 tokens` and
 *   `batch size 699 > maximum allowed batch size 512`.
 * - voyage: `The max allowed tokens per submitted batch is 120000. Your batch
 *   has 124417 tokens after truncation.`; with truncation off, an input over
 *   the context length.
 * - mistral: `Too many tokens in batch. Max is 16384 got 17555`, `Too many
 *   inputs in request, split into more batches.`
 * - gemini: `at most 100 requests can be in one batch`, `The input token
 *   count (N) exceeds the maximum number of tokens allowed (M).`
 * - cohere: too many texts (over 96) or, with truncate NONE, a text too long.
 * - jina: an input over the model's length with truncate off.
 */
const PATTERNS: Partial<Record<string, RegExp>> = {
  openai:
    /max_tokens_per_request|tokens per request|maximum context length|maximum allowed batch size|must have less than \d+ tokens|too long/i,
  voyage: /tokens per submitted batch|context length|too long|max allowed/i,
  mistral: /too many (tokens|inputs)|too long/i,
  gemini: /at most \d+ requests can be in one batch|token count .* exceeds|too long/i,
  cohere: /at most \d+|too many texts|too long/i,
  jina: /exceed|too long|too many/i,
};

/** Statuses a length complaint comes with (Bad Request, Payload Too Large, Unprocessable). */
const STATUSES = new Set([400, 413, 422]);

/**
 * Whether an HTTP error from `provider` says the request or one input is too
 * long: its wording above, or `pattern` (a new provider's own, from its
 * registry entry's `tooLong`).
 */
export function isTooLong(
  provider: string,
  status: number,
  body: string,
  pattern?: RegExp,
): boolean {
  const re = pattern ?? PATTERNS[provider];
  return !!re && STATUSES.has(status) && re.test(body);
}

/** A provider's answer that the batch, or its only input, is too long (handled by splitting or truncating). */
export class TooLongError extends Error {
  constructor(message: string) {
    super(message);
  }
}
