/**
 * A real HTTP server on 127.0.0.1 (random port) for testing hosted
 * providers offline: it records every request and answers with the test's
 * handler, which asserts the wire format and can inject faults.
 */

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  requests: SeenRequest[];
  /** Release hanging handlers and stop the server. */
  close(): Promise<void>;
  /** A promise that resolves when close() starts, for handlers that hang on purpose. */
  closing: Promise<void>;
}

/** Start a server; `handle` gets each request (0-based index n) and returns the answer. */
export function startLoopback(
  handle: (req: SeenRequest, n: number, server: LoopbackServer) => Response | Promise<Response>,
): LoopbackServer {
  let release!: () => void;
  const closing = new Promise<void>((r) => release = r);
  const requests: SeenRequest[] = [];
  const ac = new AbortController();
  // deno-lint-ignore prefer-const
  let self: LoopbackServer;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen: () => {},
  }, async (req) => {
    const text = await req.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text);
    } catch {
      // Left empty; the handler's assertions will notice.
    }
    const seen = {
      method: req.method,
      path: new URL(req.url).pathname,
      headers: req.headers,
      body,
    };
    requests.push(seen);
    try {
      return await handle(seen, requests.length - 1, self);
    } catch (e) {
      // A failed assertion inside the handler becomes a 418 the test sees in its error.
      return new Response(`assertion failed in loopback server: ${(e as Error).message}`, {
        status: 418,
      });
    }
  });
  const addr = server.addr as Deno.NetAddr;
  self = {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    closing,
    async close() {
      release();
      ac.abort();
      await server.finished;
    },
  };
  return self;
}

/** JSON response helper. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A deterministic fake vector for a text (never zero, so normalising is defined). */
export function fakeVector(text: string, dims: number): number[] {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return Array.from({ length: dims }, (_, j) => ((h >>> (j % 24)) & 0xff) / 255 + 0.01 * (j + 1));
}

/**
 * The error answers hosted APIs give, as their documentation and users'
 * reports quote them, so tests can make a loopback server fail like the
 * real service: a batch over the request's token budget, one input over
 * the model's length, 429s with `retry-after-ms`, with `x-should-retry:
 * false`, and Gemini's 429 whose body carries a `google.rpc.RetryInfo`.
 */
export const faults = {
  /** 400 saying the batch holds too many tokens (or, for Gemini, too many requests). */
  tooLongBatch(provider: string, tokens: number, max: number): Response {
    switch (provider) {
      case "openai":
        return json({
          error: {
            message: `Requested ${tokens} tokens, max ${max} tokens per request`,
            type: "max_tokens_per_request",
            param: null,
            code: "max_tokens_per_request",
          },
        }, 400);
      case "voyage":
        return json({
          detail:
            `Request to model 'voyage-code-3' failed. The max allowed tokens per submitted batch is ${max}. Your batch has ${tokens} tokens after truncation. Please lower the number of tokens in the batch.`,
        }, 400);
      case "mistral":
        return json({
          object: "error",
          message: `Too many tokens in batch. Max is ${max} got ${tokens}`,
          type: "invalid_request_error",
          param: null,
          code: null,
        }, 400);
      case "gemini":
        return json({
          error: {
            code: 400,
            message:
              "* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch\n",
            status: "INVALID_ARGUMENT",
          },
        }, 400);
      case "cohere":
        return json(
          { message: `invalid request: total number of texts must be at most ${max}` },
          400,
        );
      default:
        return json({ detail: `too many tokens in request: ${tokens} exceeds ${max}` }, 400);
    }
  },
  /** 400 saying one input is longer than the model takes. */
  tooLongInput(provider: string, tokens: number, max: number): Response {
    switch (provider) {
      case "openai":
        return json({
          error: {
            message:
              `This model's maximum context length is ${max} tokens, however you requested ${tokens} tokens (${tokens} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`,
            type: "invalid_request_error",
            param: null,
            code: null,
          },
        }, 400);
      case "gemini":
        return json({
          error: {
            code: 400,
            message:
              `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${max}).`,
            status: "INVALID_ARGUMENT",
          },
        }, 400);
      case "mistral":
        return json({
          object: "error",
          message: `Too many tokens in input. Max is ${max} got ${tokens}`,
          type: "invalid_request_error",
        }, 400);
      default:
        return json({
          detail: `Input of ${tokens} tokens is too long; the context length is ${max}`,
        }, 400);
    }
  },
  /** 429 asking for a wait in milliseconds (OpenAI's `retry-after-ms`). */
  retryAfterMs(ms: number): Response {
    return json({ error: { message: "Rate limit reached", type: "requests" } }, 429, {
      "retry-after-ms": String(ms),
    });
  },
  /** 429 that must not be retried (`x-should-retry: false`). */
  noRetry(): Response {
    return json(
      { error: { message: "Rate limit reached for requests", type: "requests" } },
      429,
      {
        "x-should-retry": "false",
      },
    );
  },
  /** A 429 with no Retry-After (a trial key's rate limit: Voyage, Cohere). */
  rateLimited(): Response {
    return json({ error: { message: "Rate limit reached for requests", type: "requests" } }, 429);
  },
  /** OpenAI's quota error: a 429 no wait will lift (credit used up). */
  insufficientQuota(): Response {
    return json({
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        code: "insufficient_quota",
      },
    }, 429);
  },
  /** Gemini's 429 RESOURCE_EXHAUSTED with a RetryInfo detail (`delay` like "13s" or "0.5s"). */
  geminiRetryInfo(delay: string): Response {
    return json({
      error: {
        code: 429,
        message: "You exceeded your current quota, please check your plan and billing details.",
        status: "RESOURCE_EXHAUSTED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{ quotaId: "EmbedContentRequestsPerMinutePerProjectPerModel-FreeTier" }],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay },
        ],
      },
    }, 429);
  },
};
