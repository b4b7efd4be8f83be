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
