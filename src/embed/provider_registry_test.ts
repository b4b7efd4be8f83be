import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import { PROVIDER_ENTRIES, providerEntry, providerFor } from "./provider_registry.ts";
import { validateInvocation } from "./invocations.ts";
import { PARALLEL_PROVIDERS } from "./parallel_embed.ts";
import { requestLimits } from "./request_budget.ts";
import { defineProvider } from "./provider_entry.ts";
import { bearer, hostedProvider, inputBody, parseDataList } from "./hosted.ts";
import { json, startLoopback } from "../../test/support/loopback_server.ts";

Deno.env.set("EXECRET_QUIET", "1");

const base = {
  name: "x",
  model: "m",
  similarity: "cosine",
  normalize: true,
  query: {},
  document: {},
  doc: "https://example.org",
};

Deno.test("the registry lists every provider once, in the order errors name them", () => {
  const names = PROVIDER_ENTRIES.map((e) => e.name);
  assertEquals(names, [
    "bm25",
    "tfidf",
    "use",
    "hf",
    "openai",
    "voyage",
    "gemini",
    "cohere",
    "mistral",
    "jina",
    "release",
  ]);
  assertEquals(PARALLEL_PROVIDERS, ["use"]);
  assertEquals(
    PROVIDER_ENTRIES.filter((e) => e.kind === "sparse").map((e) => e.name),
    ["bm25", "tfidf"],
  );
  throws(() => providerEntry("nope"), /provider "nope" is not one of bm25, tfidf, /);
});

Deno.test("request limits: the entry's documented defaults, overridden field by field", () => {
  const voyage = validateInvocation(
    { ...base, provider: "voyage", dims: 4, key_env: "K", limits: { texts: 10 } },
    "t",
  );
  assertEquals(requestLimits(voyage, providerEntry("voyage").limits), {
    texts: 10,
    tokens_per_request: 120_000,
    tokens_per_input: 32_000,
  });
  assertEquals(providerEntry("cohere").limits, { texts: 96 });
  strictEqual(providerEntry("bm25").limits, undefined);
});

Deno.test("a new entry: validated by its own metadata, built by its own factory", async () => {
  const echo = defineProvider({
    name: "echo",
    kind: "dense",
    hosted: true,
    needsBaseUrl: true,
    limits: { texts: 3 },
    create: (_inv, o) =>
      Promise.resolve({
        kind: "dense",
        embed: (texts) => Promise.resolve(texts.map(() => Float32Array.of(o.limits.texts!, 0))),
      }),
  });
  const entries = [...PROVIDER_ENTRIES, echo];
  throws(() => validateInvocation({ ...base, provider: "echo" }, "t"), /provider "echo" is not/);
  throws(() => validateInvocation({ ...base, provider: "echo" }, "t", entries), /needs "dims"/);
  throws(
    () => validateInvocation({ ...base, provider: "echo", dims: 2 }, "t", entries),
    /hosted provider needs "key_env"/,
  );
  throws(
    () => validateInvocation({ ...base, provider: "echo", dims: 2, key_env: "K" }, "t", entries),
    /echo provider needs "base_url" or "base_url_env"/,
  );
  const inv = validateInvocation(
    { ...base, provider: "echo", dims: 2, key_env: "K", base_url: "http://127.0.0.1:9" },
    "t",
    entries,
  );
  await rejects(providerFor(inv, { env: {}, providers: entries }), /missing env var K/);
  const p = await providerFor(inv, { env: { K: "k" }, providers: entries });
  ok(p.kind === "dense");
  assertEquals(Array.from((await p.embed(["a"], "query"))[0]), [3, 0]);
});

Deno.test("a new hosted entry's own too-long wording splits the batch", async () => {
  const wordy = defineProvider({
    name: "wordy",
    kind: "dense",
    hosted: true,
    tooLong: /batch is way too big/,
    create: (inv, o) =>
      Promise.resolve(
        hostedProvider(inv, o, {
          path: () => "/embeddings",
          headers: bearer,
          body: inputBody,
          parse: parseDataList,
        }),
      ),
  });
  const server = startLoopback((req) => {
    const input = req.body.input as string[];
    if (input.length > 1) return json({ detail: "this batch is way too big" }, 400);
    return json({ data: [{ embedding: [input[0].length, 1], index: 0 }] });
  });
  try {
    const entries = [...PROVIDER_ENTRIES, wordy];
    const inv = validateInvocation(
      { ...base, provider: "wordy", dims: 2, normalize: false, key_env: "K", base_url: server.url },
      "t",
      entries,
    );
    const p = await providerFor(inv, { env: { K: "k" }, providers: entries });
    ok(p.kind === "dense");
    const vectors = await p.embed(["ab", "abc"], "document");
    assertEquals(vectors.map((v) => Array.from(v)), [[2, 1], [3, 1]]);
    strictEqual(server.requests.length, 3); // the pair, refused, then each half
  } finally {
    await server.close();
  }
});
