import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { type HostedRerankerEntry, rerankerFor } from "./rerankers_table.ts";
import { rerankScores, type RerankScoresOptions } from "./rerank_scores.ts";
import { openScoreCache } from "./score_cache.ts";
import {
  fakeScore,
  fakeTokens,
  faults,
  json,
  rerankAnswer,
  rerankServer,
  type RerankServerOptions,
  TEST_KEY,
  VERSION_PREFIX,
} from "../../../test/support/loopback_rerank.ts";
import type { LoopbackServer } from "../../../test/support/loopback_server.ts";

Deno.env.set("EXECRET_QUIET", "1");

const QUERY = "return the largest element of a list";
const DOCS = [
  "def f(xs):\n    return max(xs)",
  "def f(xs):\n    return min(xs)",
  "def f(xs):\n    return sorted(xs)[0]",
  "def f(xs):\n    return xs[-1]",
  "def f(xs):\n    return sorted(xs)[-1]",
];
const CONFIGS = ["cohere-rerank-v3.5", "voyage-rerank-2.5", "jina-reranker-v2"];

/** The committed entry, with quick retries, pointed at `server` through its base_url_env. */
async function setup(
  name: string,
  server: LoopbackServer,
  extra: Partial<HostedRerankerEntry> = {},
): Promise<{ entry: HostedRerankerEntry; options: RerankScoresOptions }> {
  const table = await rerankerFor(name);
  const entry = { ...table, timeout_ms: 2000, max_retries: 3, backoff_ms: 1, ...extra };
  const env = {
    [entry.key_env]: TEST_KEY,
    [entry.base_url_env!]: server.url + VERSION_PREFIX[entry.provider],
  };
  return { entry, options: { env, cache: false, quiet: true } };
}

async function serverFor(name: string, o: Partial<RerankServerOptions> = {}) {
  const e = await rerankerFor(name);
  return rerankServer(e.provider, {
    model: e.model,
    maxTokensPerDoc: e.limits.tokens_per_document,
    ...o,
  });
}

for (const name of CONFIGS) {
  Deno.test(`${name}: documented request body, results mapped back by index`, async () => {
    const server = await serverFor(name);
    try {
      const { entry, options } = await setup(name, server);
      const got = await rerankScores(entry, QUERY, DOCS, options);
      // The server answers sorted by score; the client must put scores back in input order.
      assertEquals(got.scores, DOCS.map((d) => fakeScore(QUERY, d)));
      strictEqual(server.requests.length, 1);
      const body = server.requests[0].body;
      assertEquals(body.documents, DOCS);
      strictEqual(body.query, QUERY);
      strictEqual(got.calls, 1);
      strictEqual(got.tokens, fakeTokens(QUERY, DOCS));
      strictEqual(got.searchUnits, entry.provider === "cohere" ? 1 : 0);
      strictEqual(got.fetched.requests, 1);
      strictEqual(got.cached, 0);
      assertEquals(got.truncated, []);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${name}: 429 with retry-after-ms, 500, a hang and malformed JSON are retried`, async () => {
    const server = await serverFor(name, {
      fault: async (n, _req, s) => {
        if (n === 0) return faults.retryAfterMs(20);
        if (n === 1) return new Response("boom", { status: 500 });
        if (n === 2) {
          await Promise.race([s.closing, new Promise((r) => setTimeout(r, 5000))]);
          return new Response("too late");
        }
        if (n === 3) {
          return new Response("{not json", { headers: { "content-type": "application/json" } });
        }
        return null;
      },
    });
    try {
      const { entry, options } = await setup(name, server, { timeout_ms: 300, max_retries: 5 });
      const got = await rerankScores(entry, QUERY, DOCS, options);
      assertEquals(got.scores, DOCS.map((d) => fakeScore(QUERY, d)));
      strictEqual(server.requests.length, 5);
      strictEqual(got.fetched.retries, 4);
      // Retries are not billed: the cost is the one answered call.
      strictEqual(got.calls, 1);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${name}: x-should-retry false fails at once with one line`, async () => {
    const server = await serverFor(name, { fault: () => faults.noRetry() });
    try {
      const { entry, options } = await setup(name, server);
      await rejects(rerankScores(entry, QUERY, DOCS, options), (e: Error) => {
        ok(e.message.startsWith(`${name}: HTTP 429`), e.message);
        ok(e.message.includes("x-should-retry: false"), e.message);
        ok(!e.message.includes("\n"), "one line");
        return true;
      });
      strictEqual(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });
}

Deno.test("Retry-After in seconds is waited out", async () => {
  const server = await serverFor("voyage-rerank-2.5", {
    fault: (n) =>
      n === 0 ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } }) : null,
  });
  try {
    const { entry, options } = await setup("voyage-rerank-2.5", server);
    const t0 = performance.now();
    await rerankScores(entry, QUERY, DOCS.slice(0, 2), options);
    const waited = performance.now() - t0;
    ok(waited >= 950, `waited only ${waited.toFixed(0)} ms despite Retry-After: 1`);
    strictEqual(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

/** Answers that parse but break the contract, each with the error it must give. */
const BROKEN: [
  string,
  (scores: number[]) => { index: unknown; relevance_score: unknown }[],
  RegExp,
][] = [
  [
    "too few results",
    (s) => s.slice(1).map((relevance_score, index) => ({ index, relevance_score })),
    /got 4 results for 5 documents/,
  ],
  [
    "a duplicate index",
    (s) => s.map((relevance_score, index) => ({ index: index === 4 ? 0 : index, relevance_score })),
    /result index 0 appears twice/,
  ],
  [
    "an out-of-range index",
    (s) => s.map((relevance_score, index) => ({ index: index === 4 ? 5 : index, relevance_score })),
    /result index 5 is not in 0\.\.4/,
  ],
  [
    "a non-integer index",
    (s) =>
      s.map((relevance_score, index) => ({ index: index === 2 ? "2" : index, relevance_score })),
    /result index "2" is not in 0\.\.4/,
  ],
  [
    "a null score",
    (s) =>
      s.map((relevance_score, index) => ({
        index,
        relevance_score: index === 3 ? null : relevance_score,
      })),
    /relevance_score null of index 3 is not a finite number/,
  ],
];

for (const [what, results, error] of BROKEN) {
  Deno.test(`an answer with ${what} is a one-line error naming the reranker, not retried or cached`, async () => {
    const server = await serverFor("cohere-rerank-v3.5", {
      fault: (_n, req) => {
        const docs = req.body.documents as string[];
        return json({
          id: "x",
          results: results(docs.map((d) => fakeScore(QUERY, d))),
          meta: { billed_units: { search_units: 1 } },
        });
      },
    });
    const root = await Deno.makeTempDir();
    try {
      const { entry, options } = await setup("cohere-rerank-v3.5", server);
      const cache = await openScoreCache(entry.name, root);
      await rejects(
        rerankScores(entry, QUERY, DOCS, { ...options, cache }),
        (e: Error) => {
          ok(e.message.startsWith("cohere-rerank-v3.5: request of 5 documents at 0: "), e.message);
          ok(error.test(e.message), e.message);
          ok(!e.message.includes("\n"));
          return true;
        },
      );
      strictEqual(server.requests.length, 1);
      strictEqual(cache.size(), 0);
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("a second call with the same inputs makes no request and reports the same cost", async () => {
  const server = await serverFor("jina-reranker-v2");
  const root = await Deno.makeTempDir();
  try {
    const { entry, options } = await setup("jina-reranker-v2", server);
    const cache = await openScoreCache(entry.name, root);
    const first = await rerankScores(entry, QUERY, DOCS, { ...options, cache });
    strictEqual(server.requests.length, 1);
    const again = await rerankScores(entry, QUERY, DOCS, { ...options, cache });
    strictEqual(server.requests.length, 1, "the cached scores were fetched again");
    assertEquals(again.scores, first.scores);
    strictEqual(again.cached, DOCS.length);
    strictEqual(again.fetched.requests, 0);
    strictEqual(again.calls, first.calls);
    strictEqual(again.tokens, first.tokens);
    // A fresh process reads the segments back: still no request, same float64 scores.
    const reopened = await openScoreCache(entry.name, root, { reload: true });
    strictEqual(reopened.size(), DOCS.length);
    ok(reopened !== cache);
    const third = await rerankScores(entry, QUERY, [...DOCS].reverse(), {
      ...options,
      cache: reopened,
    });
    strictEqual(server.requests.length, 1);
    assertEquals(third.scores, [...first.scores].reverse());
    // Only what is new is sent: one new document, one request holding just it.
    const more = await rerankScores(entry, QUERY, [...DOCS, "def f(xs): return 0"], {
      ...options,
      cache,
    });
    strictEqual(server.requests.length, 2);
    assertEquals(server.requests[1].body.documents, ["def f(xs): return 0"]);
    strictEqual(more.cached, DOCS.length);
    // Another query is another key.
    await rerankScores(entry, "sort a list", DOCS.slice(0, 1), { ...options, cache });
    strictEqual(server.requests.length, 3);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a request the API calls too long is split in half until it fits", async () => {
  // Room for two documents (with the query) per request.
  const limit = 2 * (QUERY.length + Math.max(...DOCS.map((d) => d.length)));
  const server = await serverFor("voyage-rerank-2.5", { maxRequestChars: limit });
  try {
    const { entry, options } = await setup("voyage-rerank-2.5", server);
    const got = await rerankScores(entry, QUERY, DOCS, options);
    assertEquals(got.scores, DOCS.map((d) => fakeScore(QUERY, d)));
    ok(got.fetched.splits >= 2, `splits ${got.fetched.splits}`);
    const answered = server.requests.filter((r) => (r.body.documents as string[]).length <= 2);
    assertEquals(answered.flatMap((r) => r.body.documents as string[]).sort(), [...DOCS].sort());
    // Each answered request is one call: the cost adds up to their number.
    strictEqual(got.calls, answered.length);
  } finally {
    await server.close();
  }
});

Deno.test("the documented limits pack requests before sending", async () => {
  const server = await serverFor("cohere-rerank-v3.5");
  try {
    const { entry, options } = await setup("cohere-rerank-v3.5", server, {
      limits: { documents: 2, tokens_per_document: 4096 },
    });
    const got = await rerankScores(entry, QUERY, DOCS, options);
    assertEquals(server.requests.map((r) => (r.body.documents as string[]).length), [2, 2, 1]);
    assertEquals(got.scores, DOCS.map((d) => fakeScore(QUERY, d)));
    strictEqual(got.calls, 3);
  } finally {
    await server.close();
  }
});

Deno.test("a document the API calls too long is cut to limits.tokens_per_document", async () => {
  const long = "def f(xs):\n" + "    x = 1\n".repeat(400); // 4,011 chars
  const server = await serverFor("jina-reranker-v2", { maxDocumentChars: 2000 });
  try {
    const { entry, options } = await setup("jina-reranker-v2", server);
    const docs = [DOCS[0], long];
    const got = await rerankScores(entry, QUERY, docs, options);
    assertEquals(got.truncated, [1]);
    strictEqual(got.fetched.truncated, 1);
    const last = server.requests.at(-1)!.body.documents as string[];
    // 1,024 tokens less the 32 of overhead the byte bound reserves.
    strictEqual(last.find((d) => d !== DOCS[0])!.length, 1024 - 32);
    ok(long.startsWith(last.find((d) => d !== DOCS[0])!));
    strictEqual(got.scores[0], fakeScore(QUERY, DOCS[0]));
    strictEqual(got.scores[1], fakeScore(QUERY, long.slice(0, 992)));
  } finally {
    await server.close();
  }
});

Deno.test("a too-long document with no per-document limit is a one-line error", async () => {
  const server = await serverFor("jina-reranker-m0", { maxDocumentChars: 50 });
  try {
    const { entry: declared, options } = await setup("jina-reranker-m0", server);
    const entry = { ...declared, limits: {} };
    await rejects(
      rerankScores(entry, QUERY, ["x".repeat(60)], options),
      /^Error: jina-reranker-m0: document 0 \(60 chars\) is too long and the entry sets no limits\.tokens_per_document/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("a missing key is a one-line error naming the env var, and nothing is sent", async () => {
  for (
    const [name, envVar] of [
      ["cohere-rerank-v3.5", "COHERE_API_KEY"],
      ["voyage-rerank-2.5", "VOYAGE_API_KEY"],
      ["jina-reranker-v2", "JINA_API_KEY"],
    ]
  ) {
    let sent = 0;
    const entry = await rerankerFor(name);
    await rejects(
      rerankScores(entry, QUERY, DOCS, {
        env: {},
        cache: false,
        fetch: () => {
          sent++;
          return Promise.resolve(json(rerankAnswer(entry.provider, entry.model, [], 0)));
        },
      }),
      new RegExp(
        `^Error: ${name.replaceAll(".", "\\.")}: missing env var ${envVar} \\(API key\\)$`,
      ),
    );
    strictEqual(sent, 0);
  }
});
