import { quotaExhausted, retryHint } from "./retry_hints.ts";

/**
 * Resilient HTTP for hosted embedding APIs: a per-request timeout, retries
 * with exponential backoff and jitter that honour the server's own delay
 * (`retry-after-ms`, `Retry-After`, a Gemini `RetryInfo.retryDelay`) and
 * `x-should-retry`, and errors that name the config and what went wrong. A response that
 * parses but breaks the contract (wrong count, wrong dims) is not retried:
 * it fails loudly rather than storing a wrong vector.
 */

/** Retry and timeout settings for one provider. */
export interface RetryOptions {
  /** Label for messages, usually the config name. */
  label: string;
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay in ms; doubles each retry, capped at `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs?: number;
  /**
   * Time the retries of one request may spend waiting, in all (default
   * {@link RETRY_BUDGET_MS}): at least a full rate-limit window, since a
   * trial key's limit (Voyage without a payment method: 3 requests a
   * minute; a Cohere trial key: 10) is often met with no Retry-After.
   */
  budgetMs?: number;
  /** The provider, named when a quota or billing limit stops the run. */
  provider?: string;
  /** Called before each retry (progress display, tests). */
  onRetry?: (reason: string, delayMs: number, attempt: number, retry: RetryState) => void;
}

/** Where a request's retries stand, for the progress line. */
export interface RetryState {
  /** The last failure was a rate limit (HTTP 429). */
  rateLimited: boolean;
  /** Waited so far, including this delay, in ms. */
  waitedMs: number;
  /** The budget it may wait in all, in ms. */
  budgetMs: number;
}

/** Default time one request's retries may wait in all: five rate-limit windows of a minute. */
export const RETRY_BUDGET_MS = 5 * 60_000;

/** Default retries after the first attempt: enough for the budget at the backoff cap. */
export const MAX_RETRIES = 20;

/** A failure worth another attempt (timeouts, 429, 5xx, network errors, unparsable bodies). */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly rateLimited = false,
    /** No answer at all (refused, unreachable): worth a few quick tries, not minutes. */
    readonly unreachable = false,
  ) {
    super(message);
    this.name = "RetryableError";
  }
}

/**
 * Retries of a request that got no connection at all: a server that is not
 * there (a wrong base_url, a local server not started) is said within
 * seconds, not after the rate-limit budget.
 */
export const UNREACHABLE_RETRIES = 3;

/**
 * A quota or billing limit (a monthly allowance used up, no credit left, a
 * spending cap): waiting minutes will not lift it, so the run stops at once.
 */
export class QuotaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QuotaError";
  }
}

/** An HTTP error that is not retried, with its status and body for callers that look closer (too-long checks). */
export class HttpError extends Error {
  constructor(message: string, readonly status: number, readonly body: string) {
    super(message);
  }
}

/** Counters a hosted provider keeps (reported by the embed stage). */
export interface RequestStats {
  requests: number;
  retries: number;
  /** Tokens the provider reported (0 when it reports none). */
  tokens: number;
  /** Characters sent. */
  chars: number;
  /** Batches split in half after the provider said they were too long. */
  splits: number;
  /** Inputs cut to the per-input limit after the provider said they were too long. */
  truncated: number;
}

/** Fresh zeroed counters. */
export function newStats(): RequestStats {
  return { requests: 0, retries: 0, tokens: 0, chars: 0, splits: 0, truncated: 0 };
}

/** Delay before retry `attempt` (0-based): the server's own delay when given (at most 10 min), else backoff with jitter. */
export function retryDelay(attempt: number, options: RetryOptions, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, 10 * 60_000);
  const cap = options.maxBackoffMs ?? 60_000;
  const base = Math.min(cap, options.backoffMs * 2 ** attempt);
  // "Equal jitter": half fixed, half random, so concurrent clients spread out.
  return base / 2 + Math.random() * (base / 2);
}

/**
 * Run `attempt` until it succeeds, retrying RetryableErrors while retries and
 * the wait budget last; any other error ends at once.
 */
export async function withRetries<T>(
  options: RetryOptions,
  attempt: (signal: AbortSignal) => Promise<T>,
  stats?: RequestStats,
): Promise<T> {
  let last = "";
  let waited = 0;
  const budget = options.budgetMs ?? RETRY_BUDGET_MS;
  let outOfBudget = false;
  let unreachable = 0;
  let attempts = 0;
  for (let i = 0; i <= options.maxRetries; i++) {
    attempts = i + 1;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new RetryableError(`no response within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    try {
      if (stats) stats.requests++;
      return await attempt(controller.signal);
    } catch (e) {
      let err = e;
      if (timedOut && !(e instanceof RetryableError)) {
        err = new RetryableError(`no response within ${options.timeoutMs} ms`);
      }
      if (!(err instanceof RetryableError)) throw err;
      last = err.message;
      if (i === options.maxRetries) break;
      unreachable = err.unreachable ? unreachable + 1 : 0;
      if (unreachable > UNREACHABLE_RETRIES) break;
      const delay = retryDelay(i, options, err.retryAfterMs);
      if (waited + delay > budget) {
        outOfBudget = true;
        break;
      }
      waited += delay;
      if (stats) stats.retries++;
      options.onRetry?.(err.message, delay, i + 1, {
        rateLimited: err.rateLimited,
        waitedMs: waited,
        budgetMs: budget,
      });
      await new Promise((r) => setTimeout(r, delay));
    } finally {
      clearTimeout(timer);
    }
  }
  throw new Error(
    `${options.label}: gave up after ${
      outOfBudget
        ? `${(waited / 1000).toFixed(0)} s of waiting (its retry budget is ${
          (budget / 1000).toFixed(0)
        } s: raise retry_budget_ms)`
        : `${attempts} attempts`
    }: ${last}`,
  );
}

const RETRY_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/** Whether an HTTP status is worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUS.has(status) || status >= 520;
}

/**
 * POST a JSON body and return the parsed JSON answer, with timeout and
 * retries. Non-retryable HTTP errors (400, 401, 403, 404, ...) and any
 * answer with `x-should-retry: false` fail at once with an {@link HttpError}
 * naming the config, the status and the start of the body; `x-should-retry:
 * true` makes any status retryable.
 */
export function postJson(
  fetchFn: typeof fetch,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: RetryOptions,
  stats?: RequestStats,
): Promise<unknown> {
  const payload = JSON.stringify(body);
  return withRetries(options, async (signal) => {
    let res: Response;
    try {
      res = await fetchFn(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: payload,
        signal,
      });
    } catch (e) {
      if (e instanceof RetryableError) throw e;
      if (signal.aborted && signal.reason instanceof RetryableError) throw signal.reason;
      throw new RetryableError(
        `request failed: ${(e as Error).message}`,
        undefined,
        false,
        true,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      if (signal.aborted && signal.reason instanceof RetryableError) throw signal.reason;
      throw new RetryableError(`reading the response failed: ${(e as Error).message}`);
    }
    if (!res.ok) {
      const snippet = text.slice(0, 200).replace(/\s+/g, " ");
      const message = `HTTP ${res.status} from ${url}: ${snippet}`;
      const hint = retryHint(res.headers, text);
      const quota = quotaExhausted(res.status, text, hint.afterMs !== undefined);
      if (quota !== null) {
        throw new QuotaError(
          `${options.label}: ${
            options.provider ?? "the provider"
          }: ${quota} (HTTP ${res.status} from ${url}: ${snippet}); ` +
            "retrying will not help: add credit, raise the limit or wait for it to reset",
        );
      }
      if (hint.noRetry) {
        throw new HttpError(
          `${options.label}: ${message} (x-should-retry: false, not retried)`,
          res.status,
          text,
        );
      }
      if (isRetryableStatus(res.status) || hint.forceRetry) {
        throw new RetryableError(message, hint.afterMs, res.status === 429);
      }
      throw new HttpError(`${options.label}: ${message}`, res.status, text);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new RetryableError(`malformed JSON from ${url}: ${text.slice(0, 80)}`);
    }
  }, stats);
}

/**
 * Embed `texts` in batches of `batchSize` with at most `concurrency`
 * requests in flight; results come back in input order.
 */
export async function inBatches<T>(
  texts: readonly string[],
  batchSize: number,
  concurrency: number,
  run: (batch: string[], start: number) => Promise<T[]>,
): Promise<T[]> {
  const starts: number[] = [];
  for (let s = 0; s < texts.length; s += batchSize) starts.push(s);
  const results: T[][] = new Array(starts.length);
  let next = 0;
  const worker = async () => {
    while (next < starts.length) {
      const i = next++;
      const s = starts[i];
      results[i] = await run(texts.slice(s, s + batchSize), s);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, starts.length) }, worker));
  return results.flat();
}
