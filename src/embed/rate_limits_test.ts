/**
 * Rate limits are waited out, quotas stop the run at once, and a server that
 * is not there is said within seconds: the HTTP client's retries against a
 * real server on loopback.
 */
import { match, ok, rejects, strictEqual } from "node:assert/strict";
import { postJson, QuotaError, type RetryOptions, type RetryState } from "./http_client.ts";
import { quotaExhausted } from "./retry_hints.ts";
import { retryLine } from "./hosted.ts";

/** A server whose every answer is `answer(n)` for the n-th request (from 0). */
function serve(answer: (n: number) => Response) {
  let n = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      await req.text();
      return answer(n++);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/embeddings`,
    requests: () => n,
    close: () => server.shutdown(),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const rateLimited = () => json({ error: { message: "Rate limit reached for requests" } }, 429);

function options(extra: Partial<RetryOptions> = {}): RetryOptions & { lines: string[] } {
  const lines: string[] = [];
  return {
    label: "my-model",
    provider: "openai",
    timeoutMs: 5000,
    maxRetries: 20,
    backoffMs: 20,
    lines,
    onRetry: (reason: string, delay: number, attempt: number, state: RetryState) =>
      lines.push(retryLine("my-model", reason, delay, attempt, state)),
    ...extra,
  };
}

Deno.test("429s with no Retry-After are waited out, each wait said as a rate limit", async () => {
  const server = serve((n) => n < 5 ? rateLimited() : json({ ok: true }));
  try {
    const o = options();
    const got = await postJson(fetch, server.url, {}, {}, o);
    strictEqual((got as { ok: boolean }).ok, true);
    strictEqual(server.requests(), 6);
    strictEqual(o.lines.length, 5);
    for (const l of o.lines) {
      match(l, /^my-model: waiting on a rate limit \(HTTP 429\): retry \d+ in /);
    }
    match(o.lines[0], /s of the 300 s retry budget left$/);
  } finally {
    await server.close();
  }
});

Deno.test("the retry budget bounds the waiting, and the message says how to raise it", async () => {
  const server = serve(rateLimited);
  try {
    await rejects(
      postJson(fetch, server.url, {}, {}, options({ backoffMs: 100, budgetMs: 500 })),
      /^Error: my-model: gave up after \d s of waiting \(its retry budget is 1 s: raise retry_budget_ms\): HTTP 429/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("a quota or billing error stops at once, naming the provider", async () => {
  const cases: [string, () => Response][] = [
    [
      "insufficient_quota",
      () =>
        json(
          { error: { message: "You exceeded your current quota", type: "insufficient_quota" } },
          429,
        ),
    ],
    ["payment required", () => json({ detail: "Payment Required" }, 402)],
    ["PerDay", () =>
      json({
        error: {
          code: 429,
          status: "RESOURCE_EXHAUSTED",
          details: [{
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{ quotaId: "EmbedContentRequestsPerDayPerProjectPerModel-FreeTier" }],
          }],
        },
      }, 429)],
    [
      "monthly limit",
      () => json({ message: "You have reached your monthly limit of 1000 calls" }, 429),
    ],
  ];
  for (const [what, answer] of cases) {
    const server = serve(answer);
    try {
      const o = options();
      await rejects(postJson(fetch, server.url, {}, {}, o), (e: Error) => {
        ok(e instanceof QuotaError, `${what}: ${e}`);
        match(e.message, /^my-model: openai: /);
        ok(e.message.includes(what), e.message);
        ok(!e.message.includes("\n"));
        return true;
      });
      strictEqual(server.requests(), 1, `${what}: sent once, not retried`);
      strictEqual(o.lines.length, 0);
    } finally {
      await server.close();
    }
  }
});

Deno.test("a rate limit that names a quota but says when to come back is waited for", () => {
  // Gemini's per-minute 429 speaks of quota and billing, and gives a RetryInfo delay.
  const body = JSON.stringify({
    error: {
      message: "You exceeded your current quota, please check your plan and billing details.",
    },
  });
  strictEqual(quotaExhausted(429, body, true), null);
  ok(quotaExhausted(429, body, false)?.includes("billing"));
});

Deno.test("a server that is not there is said within a few tries, not the whole budget", async () => {
  const server = serve(() => json({}));
  const url = server.url;
  await server.close();
  const o = options({ backoffMs: 10 });
  const started = performance.now();
  await rejects(
    postJson(fetch, url, {}, {}, o),
    /^Error: my-model: gave up after 4 attempts: request failed/,
  );
  ok(performance.now() - started < 10_000);
  strictEqual(o.lines.length, 3);
});
