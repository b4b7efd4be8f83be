import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { invocationFor } from "../invocations.ts";
import type { Invocation } from "../invocation.ts";
import { providerFor } from "../provider_registry.ts";
import type { HostedProvider } from "../hosted.ts";
import { l2Normalize } from "../vectors.ts";
import {
  fakeVector,
  faults,
  json,
  type SeenRequest,
  startLoopback,
} from "../../../test/support/loopback_server.ts";

Deno.env.set("EXECRET_QUIET", "1");
const KEY = "k";
const DIMS = 8;
const bytes = (t: string) => new TextEncoder().encode(t).length;

/** The texts of a request and the answer for them, per wire format. */
function wireOf(provider: string) {
  if (provider === "gemini") {
    return {
      texts: (b: Record<string, unknown>) =>
        (b.requests as { content: { parts: { text: string }[] } }[]).map((r) =>
          r.content.parts[0].text
        ),
      answer: (texts: string[]) => ({
        embeddings: texts.map((t) => ({ values: fakeVector(t, DIMS) })),
      }),
    };
  }
  if (provider === "cohere") {
    return {
      texts: (b: Record<string, unknown>) => b.texts as string[],
      answer: (texts: string[]) => ({
        embeddings: { float: texts.map((t) => fakeVector(t, DIMS)) },
        meta: { billed_units: { input_tokens: 1 } },
      }),
    };
  }
  return {
    texts: (b: Record<string, unknown>) => b.input as string[],
    answer: (texts: string[]) => ({
      data: texts.map((t, index) => ({ embedding: fakeVector(t, DIMS), index })),
      usage: { total_tokens: 1 },
    }),
  };
}

/** The table's entry aimed at `url`, with small dims, quick retries and `extra` on top. */
async function aimed(config: string, url: string, extra: Partial<Invocation> = {}) {
  const inv: Invocation = {
    ...await invocationFor(config),
    base_url: url,
    base_url_env: undefined,
    dims: DIMS,
    timeout_ms: 3000,
    max_retries: 3,
    backoff_ms: 1,
    ...extra,
  };
  const p = await providerFor(inv, { env: { [inv.key_env!]: KEY } }) as HostedProvider;
  return { inv, p };
}

const want = (t: string) => l2Normalize(Float32Array.from(fakeVector(t, DIMS)));

/** Texts of varied lengths (10 to 160 bytes), the same on every call. */
const TEXTS = Array.from({ length: 24 }, (_, i) => `t${i} ` + "x".repeat(10 + (i * 37) % 150));

for (const config of ["openai-3-small", "mistral-embed", "voyage-code-3", "gemini-embedding-001"]) {
  Deno.test(`${config}: batches never exceed limits.texts nor the token budget, and are the same every run`, async () => {
    const inv0 = await invocationFor(config);
    const wire = wireOf(inv0.provider);
    const limits = { texts: 5, tokens_per_request: 400, tokens_per_input: 300 };
    const server = startLoopback((req: SeenRequest) => {
      const texts = wire.texts(req.body);
      const tokens = texts.reduce((n, t) => n + bytes(t) + 32, 0);
      if (texts.length > limits.texts) throw new Error(`${texts.length} texts`);
      if (tokens > limits.tokens_per_request) throw new Error(`${tokens} tokens`);
      return json(wire.answer(texts));
    });
    try {
      const runs: string[][][] = [];
      for (let run = 0; run < 2; run++) {
        const before = server.requests.length;
        const { p } = await aimed(config, server.url, { limits, batch_size: 64, concurrency: 2 });
        const v = await p.embed(TEXTS, "document");
        // Documents go bare for these configs, so the vector is of the text itself.
        TEXTS.forEach((t, i) => assertEquals(v[i], want(t)));
        runs.push(
          server.requests.slice(before).map((r) => wire.texts(r.body)).sort((a, b) =>
            a[0] < b[0] ? -1 : 1
          ),
        );
        strictEqual(p.stats.splits, 0);
      }
      // The byte bound packs tighter than the count: more than ceil(24 / 5) requests.
      ok(runs[0].length > 5, `${runs[0].length} requests`);
      assertEquals(runs[0], runs[1]);
      assertEquals(runs[0].flat().length, TEXTS.length);
    } finally {
      await server.close();
    }
  });
}

for (
  const config of [
    "openai-3-small",
    "voyage-code-3",
    "mistral-embed",
    "gemini-embedding-001",
    "cohere-embed-v4",
  ]
) {
  Deno.test(`${config}: a batch the API calls too long is split in half until it fits`, async () => {
    const inv0 = await invocationFor(config);
    const wire = wireOf(inv0.provider);
    const server = startLoopback((req) => {
      const texts = wire.texts(req.body);
      const total = texts.reduce((n, t) => n + bytes(t), 0);
      if (total > 100) return faults.tooLongBatch(inv0.provider, total, 100);
      return json(wire.answer(texts));
    });
    try {
      // Limits far above the server's: only the API's 400 can make the client split.
      const { p } = await aimed(config, server.url, {
        limits: { texts: 8, tokens_per_request: 1_000_000, tokens_per_input: 1000 },
        batch_size: 8,
        concurrency: 1,
      });
      const texts = Array.from({ length: 6 }, (_, i) => `def f${i}(): return ${"1+".repeat(15)}1`);
      const v = await p.embed(texts, "document");
      texts.forEach((t, i) => assertEquals(v[i], want(t)));
      ok(p.stats.splits >= 2, `${p.stats.splits} splits`);
      strictEqual(p.stats.truncated, 0);
      const rejected = server.requests.filter((r) =>
        wire.texts(r.body).reduce((n, t) => n + bytes(t), 0) > 100
      ).length;
      strictEqual(rejected, p.stats.splits);
    } finally {
      await server.close();
    }
  });
}

for (const config of ["openai-3-small", "mistral-embed", "gemini-embedding-001"]) {
  Deno.test(`${config}: an input the API calls too long is cut to tokens_per_input, sent again and counted`, async () => {
    const inv0 = await invocationFor(config);
    const wire = wireOf(inv0.provider);
    const server = startLoopback((req) => {
      const texts = wire.texts(req.body);
      const long = texts.find((t) => bytes(t) > 64);
      if (long !== undefined) return faults.tooLongInput(inv0.provider, bytes(long), 64);
      return json(wire.answer(texts));
    });
    try {
      const { p } = await aimed(config, server.url, {
        limits: { tokens_per_input: 64 },
        batch_size: 4,
        concurrency: 1,
      });
      const long = "def long():\n    return " + "é+".repeat(200) + "0";
      const texts = ["def a(): pass", long, "def b(): pass"];
      const r = await p.embedReport!(texts, "document");
      assertEquals(r.truncated, [1]);
      strictEqual(p.stats.truncated, 1);
      // 64 tokens minus the 32-token overhead: a 32-byte prefix, whole code points only.
      const seen = server.requests.flatMap((q) => wire.texts(q.body)).find((t) =>
        long.startsWith(t) && t !== long
      )!;
      ok(long.startsWith(seen) && bytes(seen) <= 32 && bytes(seen) >= 30, JSON.stringify(seen));
      assertEquals(r.vectors[1], want(seen));
      assertEquals(r.vectors[0], want(texts[0]));
      assertEquals(r.vectors[2], want(texts[2]));
    } finally {
      await server.close();
    }
  });
}

Deno.test("an input still too long after the cut fails in one line naming the config", async () => {
  const server = startLoopback(() => faults.tooLongInput("openai", 9000, 8192));
  try {
    const { p } = await aimed("voyage-code-3", server.url, { limits: { tokens_per_input: 64 } });
    await rejects(p.embed(["x".repeat(500)], "query"), (e: Error) => {
      ok(
        /^voyage-code-3: a query text of 500 chars is too long even cut to/.test(e.message),
        e.message,
      );
      ok(!e.message.includes("\n"));
      return true;
    });
  } finally {
    await server.close();
  }
});

/** Time one embed call against a server whose first answer is `first`. */
async function timedRetry(config: string, first: () => Response) {
  const inv0 = await invocationFor(config);
  const wire = wireOf(inv0.provider);
  const server = startLoopback((req, n) =>
    n === 0 ? first() : json(wire.answer(wire.texts(req.body)))
  );
  try {
    // A long backoff: if the server's delay were ignored the wait would be 2.5–5 s.
    const { p } = await aimed(config, server.url, { backoff_ms: 5000 });
    const t0 = performance.now();
    const v = await p.embed(["a"], "query");
    const waited = performance.now() - t0;
    strictEqual(v.length, 1);
    strictEqual(p.stats.retries, 1);
    strictEqual(server.requests.length, 2);
    return waited;
  } finally {
    await server.close();
  }
}

for (const config of ["openai-3-small", "voyage-code-3"]) {
  Deno.test(`${config}: a 429 with retry-after-ms waits that long, not the backoff`, async () => {
    const waited = await timedRetry(config, () => faults.retryAfterMs(150));
    ok(waited >= 140 && waited < 1500, `waited ${waited.toFixed(0)} ms for retry-after-ms 150`);
  });

  Deno.test(`${config}: a 429 with x-should-retry false fails at once in one line naming the config`, async () => {
    const server = startLoopback(() => faults.noRetry());
    try {
      const { p } = await aimed(config, server.url, { backoff_ms: 5000 });
      const t0 = performance.now();
      await rejects(p.embed(["a"], "query"), (e: Error) => {
        ok(new RegExp(`^${config}: HTTP 429.*x-should-retry: false`).test(e.message), e.message);
        ok(!e.message.includes("\n"));
        return true;
      });
      strictEqual(server.requests.length, 1);
      ok(performance.now() - t0 < 1000);
    } finally {
      await server.close();
    }
  });
}

for (const config of ["gemini-embedding-001", "gemini-embedding-2"]) {
  Deno.test(`${config}: a 429 whose body has RetryInfo retryDelay "0.15s" waits that long`, async () => {
    const waited = await timedRetry(config, () => faults.geminiRetryInfo("0.15s"));
    ok(waited >= 140 && waited < 1500, `waited ${waited.toFixed(0)} ms for retryDelay 0.15s`);
  });
}
