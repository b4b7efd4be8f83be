import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { invocationFor } from "../invocations.ts";
import { type Invocation, textToSend } from "../invocation.ts";
import { providerFor } from "../provider_registry.ts";
import type { Role } from "../provider.ts";
import type { HostedProvider } from "../hosted.ts";
import { l2Normalize } from "../vectors.ts";
import { fakeVector, json, startLoopback } from "../../../test/support/loopback_server.ts";

Deno.env.set("EXECRET_QUIET", "1");
const KEY = "test-key-123";

/** How one provider's wire format looks from the server side. */
interface Wire {
  config: string;
  path: string;
  auth: (h: Headers) => boolean;
  /** The exact texts in the request, after checking model and role parameters. */
  texts: (body: Record<string, unknown>, role: Role) => string[];
  answer: (texts: string[], dims: number) => unknown;
}

const bearer = (h: Headers) => h.get("authorization") === `Bearer ${KEY}`;
const dataList = (texts: string[], dims: number) => ({
  object: "list",
  data: texts.map((t, index) => ({ object: "embedding", embedding: fakeVector(t, dims), index }))
    .reverse(), // out of order on purpose: the client must sort by index
  usage: { prompt_tokens: texts.length * 3, total_tokens: texts.length * 3 },
});

function expect(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

const WIRES: Wire[] = [
  {
    config: "voyage-code-3",
    path: "/embeddings",
    auth: bearer,
    texts: (b, role) => {
      expect(b.model === "voyage-code-3", "model");
      expect(b.input_type === role, `input_type ${b.input_type}`);
      expect(b.output_dimension === 1024, "output_dimension");
      return b.input as string[];
    },
    answer: dataList,
  },
  {
    config: "mistral-embed",
    path: "/embeddings",
    auth: bearer,
    texts: (b) => {
      expect(b.model === "mistral-embed", "model");
      expect(!("input_type" in b), "mistral-embed takes no input type");
      return b.input as string[];
    },
    answer: dataList,
  },
  {
    config: "jina-v2-base-code",
    path: "/embeddings",
    auth: bearer,
    texts: (b) => {
      expect(b.model === "jina-embeddings-v2-base-code", "model");
      expect(b.normalized === true && b.embedding_type === "float", "jina params");
      expect(!("task" in b), "v2 models take no task");
      return b.input as string[];
    },
    answer: dataList,
  },
  {
    config: "cohere-embed-v4",
    path: "/embed",
    auth: bearer,
    texts: (b, role) => {
      expect(b.model === "embed-v4.0", "model");
      expect(
        b.input_type === (role === "query" ? "search_query" : "search_document"),
        "input_type",
      );
      assertEquals(b.embedding_types, ["float"]);
      return b.texts as string[];
    },
    answer: (texts, dims) => ({
      id: "x",
      embeddings: { float: texts.map((t) => fakeVector(t, dims)) },
      texts,
      meta: { billed_units: { input_tokens: texts.length * 3 } },
    }),
  },
  {
    config: "gemini-embedding-001",
    path: "/models/gemini-embedding-001:batchEmbedContents",
    auth: (h) => h.get("x-goog-api-key") === KEY && !h.has("authorization"),
    texts: (b, role) => {
      const reqs = b.requests as {
        model: string;
        taskType: string;
        outputDimensionality: number;
        content: { parts: { text: string }[] };
      }[];
      for (const r of reqs) {
        expect(r.model === "models/gemini-embedding-001", "model");
        expect(
          r.taskType === (role === "query" ? "CODE_RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT"),
          `taskType ${r.taskType}`,
        );
        expect(r.outputDimensionality === 3072, "outputDimensionality");
      }
      return reqs.map((r) => r.content.parts[0].text);
    },
    answer: (texts, dims) => ({ embeddings: texts.map((t) => ({ values: fakeVector(t, dims) })) }),
  },
  {
    config: "gemini-embedding-2",
    path: "/models/gemini-embedding-2:batchEmbedContents",
    auth: (h) => h.get("x-goog-api-key") === KEY,
    texts: (b) => {
      const reqs = b.requests as { taskType?: string; content: { parts: { text: string }[] } }[];
      for (const r of reqs) {
        expect(r.taskType === undefined, "gemini-embedding-2 takes no taskType");
      }
      return reqs.map((r) => r.content.parts[0].text);
    },
    answer: (texts, dims) => ({ embeddings: texts.map((t) => ({ values: fakeVector(t, dims) })) }),
  },
  {
    config: "openai-3-small",
    path: "/embeddings",
    auth: bearer,
    texts: (b) => {
      expect(b.model === "text-embedding-3-small", "model");
      expect(b.encoding_format === "float", "encoding_format");
      return b.input as string[];
    },
    answer: dataList,
  },
  {
    config: "qwen3-embedding-4b",
    path: "/v1/embeddings",
    auth: bearer,
    texts: (b) => {
      expect(b.model === "Qwen/Qwen3-Embedding-4B", "model");
      return b.input as string[];
    },
    answer: dataList,
  },
];

const QUERIES = ["add two numbers", "reverse a string", "count vowels"];
const DOCS = ["def add(a, b):\n    return a + b", "def rev(s):\n    return s[::-1]", "x = 1"];

/** The table's entry pointed at the loopback server, with quick retry settings. */
async function localInvocation(config: string, url: string, path: string): Promise<Invocation> {
  const inv = await invocationFor(config);
  // OpenAI-compatible servers are addressed with their /v1 prefix, as vLLM and TEI serve it.
  const base = path.startsWith("/v1/") ? `${url}/v1` : url;
  return {
    ...inv,
    base_url: base,
    base_url_env: undefined,
    batch_size: 2,
    timeout_ms: 2000,
    max_retries: 3,
    backoff_ms: 1,
  };
}

for (const wire of WIRES) {
  Deno.test(`${wire.config}: native wire format, role parameters, batches, order`, async () => {
    const batches: { role: Role; texts: string[] }[] = [];
    let roleNow: Role = "query";
    const server = startLoopback((req) => {
      expect(req.method === "POST", "method");
      expect(req.path === wire.path, `path ${req.path}`);
      expect(wire.auth(req.headers), "auth header");
      const texts = wire.texts(req.body, roleNow);
      batches.push({ role: roleNow, texts });
      return json(wire.answer(texts, inv.dims!));
    });
    const inv = await localInvocation(wire.config, server.url, wire.path);
    try {
      const env = { [inv.key_env!]: KEY };
      const p = await providerFor(inv, { env }) as HostedProvider;
      for (const [role, texts] of [["query", QUERIES], ["document", DOCS]] as const) {
        roleNow = role;
        const vectors = await p.embed(texts, role);
        strictEqual(vectors.length, texts.length);
        texts.forEach((t, i) => {
          const want = l2Normalize(
            Float32Array.from(fakeVector(textToSend(inv, t, role), inv.dims!)),
          );
          assertEquals(vectors[i], want, `${role} ${i}`);
        });
      }
      // Batches of 2: exact texts sent (prefixes included), nothing lost or repeated.
      const sent = (role: Role) =>
        batches.filter((b) => b.role === role).flatMap((b) => b.texts).sort();
      assertEquals(sent("query"), QUERIES.map((t) => textToSend(inv, t, "query")).sort());
      assertEquals(sent("document"), DOCS.map((t) => textToSend(inv, t, "document")).sort());
      ok(batches.every((b) => b.texts.length <= 2));
      strictEqual(batches.length, 4);
      strictEqual(p.stats.requests, 4);
      strictEqual(p.stats.retries, 0);
      strictEqual(
        p.stats.chars,
        [
          ...QUERIES.map((t) => textToSend(inv, t, "query")),
          ...DOCS.map((t) => textToSend(inv, t, "document")),
        ].join("").length,
      );
    } finally {
      await server.close();
    }
  });
}

Deno.test("prefix configs send the documented instruction text", async () => {
  const qwen = await invocationFor("qwen3-embedding-4b");
  ok(textToSend(qwen, "sum a list", "query").startsWith("Instruct: "));
  ok(textToSend(qwen, "sum a list", "query").endsWith("\nQuery:sum a list"));
  strictEqual(textToSend(qwen, "def f(): pass", "document"), "def f(): pass");
  const g2 = await invocationFor("gemini-embedding-2");
  strictEqual(textToSend(g2, "sum", "query"), "task: code retrieval | query: sum");
  strictEqual(textToSend(g2, "x=1", "document"), "title: none | text: x=1");
});

/** A server failing per `fault` on the first request, then answering properly. */
function faultyServer(
  fault: (
    n: number,
    texts: string[],
    closing: Promise<void>,
  ) => Promise<Response | null> | Response | null,
) {
  return startLoopback(async (req, n, server) => {
    const texts = (req.body.input ?? []) as string[];
    const r = await fault(n, texts, server.closing);
    return r ?? json(dataList(texts, DIMS));
  });
}

const DIMS = 1024;

for (const config of ["voyage-code-3", "openai-3-small"]) {
  const setup = async (url: string, extra: Partial<Invocation> = {}) => {
    const inv = { ...await localInvocation(config, url, "/embeddings"), dims: DIMS, ...extra };
    return await providerFor(inv, { env: { [inv.key_env!]: KEY } }) as HostedProvider;
  };

  Deno.test(`${config}: 429 with Retry-After is waited out, then succeeds`, async () => {
    const server = faultyServer((n) =>
      n === 0 ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } }) : null
    );
    try {
      const p = await setup(server.url);
      const t0 = performance.now();
      const v = await p.embed(["a"], "query");
      const waited = performance.now() - t0;
      strictEqual(v.length, 1);
      strictEqual(p.stats.retries, 1);
      ok(waited >= 950, `waited only ${waited.toFixed(0)} ms despite Retry-After: 1`);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${config}: 500, a hang past the timeout and malformed JSON are retried`, async () => {
    const server = faultyServer(async (n, _texts, closing) => {
      if (n === 0) return new Response("boom", { status: 500 });
      if (n === 1) {
        await Promise.race([closing, new Promise((r) => setTimeout(r, 5000))]);
        return new Response("too late", { status: 200 });
      }
      if (n === 2) {
        return new Response("{not json", {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }
      return null;
    });
    try {
      const p = await setup(server.url, { timeout_ms: 300, max_retries: 4 });
      const v = await p.embed(["a"], "document");
      strictEqual(v.length, 1);
      strictEqual(p.stats.retries, 3);
      strictEqual(server.requests.length, 4);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${config}: wrong vector count or dims is a clear error, never stored`, async () => {
    const server = faultyServer((n, texts) => {
      if (n === 0) return json(dataList(texts.slice(1), DIMS));
      return json(dataList(texts, 7));
    });
    try {
      const p = await setup(server.url);
      await rejects(
        p.embed(["a", "b"], "query"),
        new RegExp(`^Error: ${config}: .*got 1 vectors for 2 texts`),
      );
      await rejects(
        p.embed(["a"], "query"),
        new RegExp(`^Error: ${config}: .*vector 0 has 7 dims, expected 1024`),
      );
    } finally {
      await server.close();
    }
  });

  Deno.test(`${config}: persistent 503 gives up with a one-line error; 401 is not retried`, async () => {
    const server = faultyServer((n) => n < 10 ? new Response("down", { status: 503 }) : null);
    try {
      const p = await setup(server.url, { max_retries: 2 });
      await rejects(
        p.embed(["a"], "query"),
        new RegExp(`^Error: ${config}: gave up after 3 attempts: .*503`),
      );
    } finally {
      await server.close();
    }
    const denied = faultyServer(() => new Response('{"error":"bad key"}', { status: 401 }));
    try {
      const p = await setup(denied.url);
      await rejects(p.embed(["a"], "query"), /401/);
      strictEqual(denied.requests.length, 1);
    } finally {
      await denied.close();
    }
  });
}

Deno.test("a missing key is a one-line error naming the env var", async () => {
  const inv = await invocationFor("cohere-embed-v4");
  await rejects(
    providerFor(inv, { env: {} }),
    /^Error: cohere-embed-v4: missing env var COHERE_API_KEY \(API key\)$/,
  );
});
