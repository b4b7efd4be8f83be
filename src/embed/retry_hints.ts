/**
 * What a failed response says about retrying, beyond its status:
 * `x-should-retry` (OpenAI: `false` forbids a retry, `true` asks for one
 * whatever the status), `retry-after-ms` (OpenAI, milliseconds),
 * `Retry-After` (seconds or an HTTP date) and, in a Gemini/Google error
 * body, `error.details[]` of type `google.rpc.RetryInfo` with a `retryDelay`
 * such as `"13s"` or `"0.5s"`.
 */
export interface RetryHint {
  /** How long the server asks to wait, in ms. */
  afterMs?: number;
  /** `x-should-retry: false`. */
  noRetry?: boolean;
  /** `x-should-retry: true`. */
  forceRetry?: boolean;
}

/** Parse a `Retry-After` header (seconds or an HTTP date) into ms, or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A protobuf Duration in its JSON form (`"13s"`, `"0.5s"`, `"1.000340s"`) in ms, or undefined. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value);
  return m ? Number(m[1]) * 1000 : undefined;
}

/** `retryDelay` of a google.rpc.RetryInfo in an error body (object or one-element array), in ms. */
export function retryInfoDelay(body: string): number | undefined {
  if (!body.includes("retryDelay")) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const root = Array.isArray(json) ? json[0] : json;
  const details = (root as { error?: { details?: unknown } })?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const ms = parseDuration((d as { retryDelay?: unknown })?.retryDelay);
    if (ms !== undefined) return ms;
  }
  return undefined;
}

/** The retry hint of a failed response from its headers and body. */
export function retryHint(headers: Headers | undefined, body: string, now = Date.now()): RetryHint {
  const hint: RetryHint = {};
  const should = headers?.get("x-should-retry")?.trim().toLowerCase();
  if (should === "false") hint.noRetry = true;
  if (should === "true") hint.forceRetry = true;
  const ms = Number(headers?.get("retry-after-ms") ?? "");
  if (headers?.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) hint.afterMs = ms;
  else {hint.afterMs = parseRetryAfter(headers?.get("retry-after") ?? null, now) ??
      retryInfoDelay(body);}
  if (hint.afterMs === undefined) delete hint.afterMs;
  return hint;
}

/** OpenAI's codes for a quota or billing limit (error.code or error.type), all sent with 429. */
const QUOTA_CODES = new Set([
  "insufficient_quota",
  "credit_balance_exhausted",
  "organization_spend_limit_exceeded",
  "project_spend_limit_exceeded",
  "organization_usage_limit_exceeded",
  "billing_hard_limit_reached",
]);

/** Wording of the other providers' quota and billing errors (a rate limit says none of this). */
const QUOTA_WORDS =
  /\b(monthly|daily) (limit|quota)|billing|payment (method|required)|insufficient[ _](quota|balance|credits?|funds)|credit balance|out of credits?|spend(ing)? limit|calls? ?\/ ?month|per month/i;

/**
 * Whether a failed response says a quota or billing limit is reached (not a
 * rate limit, which passes with time): HTTP 402; OpenAI's quota codes
 * (sent with 429); a Google `QuotaFailure` whose quota is per day or month
 * (a per-minute one is a rate limit); or, from a response that gives no
 * retry delay (`retryDelayed`), the wording other providers use ("monthly
 * limit", "billing", "insufficient balance", ...). Returns what it is, in
 * words, or null.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { quotaExhausted } from "./retry_hints.ts";
 * const openai = JSON.stringify({ error: { type: "insufficient_quota", code: "insufficient_quota" } });
 * strictEqual(quotaExhausted(429, openai), "quota or billing limit reached (insufficient_quota)");
 * strictEqual(quotaExhausted(429, '{"error": {"message": "Rate limit reached"}}'), null);
 * ```
 */
export function quotaExhausted(status: number, body: string, retryDelayed = false): string | null {
  if (status === 402) return "payment required";
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const root = Array.isArray(json) ? json[0] : json;
  const error = (root as { error?: Record<string, unknown> } | undefined)?.error;
  for (const key of ["code", "type"] as const) {
    const v = error?.[key];
    if (typeof v === "string" && QUOTA_CODES.has(v)) {
      return `quota or billing limit reached (${v})`;
    }
  }
  const details = error?.details;
  if (Array.isArray(details)) {
    for (const d of details) {
      for (const v of (d as { violations?: unknown[] })?.violations ?? []) {
        const id = (v as { quotaId?: unknown })?.quotaId;
        if (typeof id === "string" && /Per(Day|Month)/.test(id)) {
          return `quota reached (${id})`;
        }
      }
    }
  }
  // A server that says when to come back (Retry-After, RetryInfo) sets a rate
  // limit, whatever its words: Gemini's per-minute 429 speaks of "quota" and "billing".
  if (!retryDelayed && (status === 429 || status === 403 || status === 400)) {
    const words = QUOTA_WORDS.exec(body);
    if (words) return `quota or billing limit reached ("${words[0]}")`;
  }
  return null;
}
