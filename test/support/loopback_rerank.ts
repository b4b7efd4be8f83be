/**
 * A loopback server speaking the three documented rerank wire formats
 * (Cohere `/v2/rerank`, Voyage and Jina `/v1/rerank`), for testing hosted
 * rerankers offline. It checks each request the way the provider would
 * (bearer key, model, query, documents, top_n/top_k, the truncation field),
 * answers with results sorted by score (as the APIs do, not in input
 * order), and can fail like the real service: faults are Responses a test
 * returns from its `fault` hook, or the length limits set in options.
 * Built on the embedding side's loopback server (test/support/loopback_server.ts).
 */
import { json, type LoopbackServer, type SeenRequest, startLoopback } from "./loopback_server.ts";
import type { RerankProviderName } from "../../src/rerank/hosted/wire_formats.ts";

export { faults, json } from "./loopback_server.ts";

/** The API key the tests use. */
export const TEST_KEY = "test-rerank-key";

/** Path prefix each provider serves its rerank endpoint under. */
export const VERSION_PREFIX: Record<RerankProviderName, string> = {
  cohere: "/v2",
  voyage: "/v1",
  jina: "/v1",
};

/** A deterministic relevance score in (0, 1) for a (query, document) pair. */
export function fakeScore(query: string, document: string): number {
  let h = 2166136261;
  const s = `${query}\u0000${document}`;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return (h % 1_000_000 + 1) / 1_000_001;
}

/** Tokens the fake server bills for a request: one per 4 characters, at least one per text. */
export function fakeTokens(query: string, documents: readonly string[]): number {
  return documents.reduce((n, d) => n + Math.max(1, Math.ceil((query.length + d.length) / 4)), 0);
}

/** A provider's documented answer for scored documents, results sorted by score descending. */
export function rerankAnswer(
  provider: RerankProviderName,
  model: string,
  scores: readonly number[],
  tokens: number,
): unknown {
  const sorted = scores.map((relevance_score, index) => ({ index, relevance_score }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  switch (provider) {
    case "cohere":
      return {
        id: "07734bd2-2473-4f07-94e1-0d9f0e6843cf",
        results: sorted,
        meta: {
          api_version: { version: "2", is_experimental: false },
          billed_units: { search_units: 1 },
          tokens: { input_tokens: tokens },
        },
      };
    case "voyage":
      return { object: "list", data: sorted, model, usage: { total_tokens: tokens } };
    case "jina":
      return {
        model,
        usage: { total_tokens: tokens, prompt_tokens: tokens },
        results: sorted,
      };
  }
}

/** The error bodies the APIs give for a request, or one document, that is too long. */
export const rerankFaults = {
  tooLongRequest(provider: RerankProviderName, tokens: number, max: number): Response {
    switch (provider) {
      case "cohere":
        return json({ message: `invalid request: the request must be at most ${max} tokens` }, 400);
      case "voyage":
        return json({
          detail:
            `Request to model 'rerank-2.5' failed. The max allowed tokens per submitted batch is ${max}. Your batch has ${tokens} tokens.`,
        }, 400);
      case "jina":
        return json({ detail: `Too many tokens in request: ${tokens} exceeds ${max}` }, 400);
    }
  },
  tooLongDocument(provider: RerankProviderName, tokens: number, max: number): Response {
    switch (provider) {
      case "cohere":
        return json({ message: `invalid request: a document is too long (${tokens} tokens)` }, 400);
      case "voyage":
        return json({
          detail: `A document of ${tokens} tokens exceeds the context length of ${max} tokens.`,
        }, 400);
      case "jina":
        return json({
          detail: `Input of ${tokens} tokens exceeds the maximum context length of ${max} tokens`,
        }, 400);
    }
  },
};

/** Options of {@link rerankServer}. */
export interface RerankServerOptions {
  /** Model the requests must name. */
  model: string;
  /** Score of a pair (default {@link fakeScore}). */
  score?: (query: string, document: string) => number;
  /** Inject a fault: return a Response to send instead of the answer, or null to answer. */
  fault?: (
    n: number,
    req: SeenRequest,
    server: LoopbackServer,
  ) => Response | null | Promise<Response | null>;
  /** Reject (400, too long) any request whose documents plus query exceed this many chars. */
  maxRequestChars?: number;
  /** Reject (400, too long) any request holding a document longer than this many chars. */
  maxDocumentChars?: number;
  /** Expected `max_tokens_per_doc` (Cohere). */
  maxTokensPerDoc?: number;
}

function expect(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

/** Check a request against the provider's documented format; returns its query and documents. */
export function checkRerankRequest(
  provider: RerankProviderName,
  req: SeenRequest,
  o: RerankServerOptions,
): { query: string; documents: string[] } {
  expect(req.method === "POST", `method ${req.method}`);
  expect(req.path === `${VERSION_PREFIX[provider]}/rerank`, `path ${req.path}`);
  expect(req.headers.get("authorization") === `Bearer ${TEST_KEY}`, "bearer key");
  expect(
    (req.headers.get("content-type") ?? "").startsWith("application/json"),
    "content-type",
  );
  const b = req.body;
  expect(b.model === o.model, `model ${b.model}`);
  expect(typeof b.query === "string" && b.query !== "", "query");
  const documents = b.documents as string[];
  expect(
    Array.isArray(documents) && documents.length > 0 &&
      documents.every((d) => typeof d === "string"),
    "documents must be a non-empty list of strings",
  );
  switch (provider) {
    case "cohere":
      expect(b.top_n === documents.length, `top_n ${b.top_n}`);
      expect(
        b.max_tokens_per_doc === o.maxTokensPerDoc,
        `max_tokens_per_doc ${b.max_tokens_per_doc}`,
      );
      expect(!("top_k" in b), "cohere takes top_n, not top_k");
      break;
    case "voyage":
      expect(b.top_k === documents.length, `top_k ${b.top_k}`);
      expect(b.truncation === true, "truncation must be true");
      expect(b.return_documents === false, "return_documents");
      expect(!("top_n" in b), "voyage takes top_k, not top_n");
      break;
    case "jina":
      expect(b.top_n === documents.length, `top_n ${b.top_n}`);
      expect(b.return_documents === false, "return_documents");
      expect(!("top_k" in b), "jina takes top_n, not top_k");
      break;
  }
  return { query: b.query as string, documents };
}

/** Start a loopback rerank server for `provider`; point the entry's base URL at `url + VERSION_PREFIX`. */
export function rerankServer(
  provider: RerankProviderName,
  o: RerankServerOptions,
): LoopbackServer {
  return startLoopback(async (req, n, server) => {
    const { query, documents } = checkRerankRequest(provider, req, o);
    const injected = await o.fault?.(n, req, server);
    if (injected) return injected;
    const longest = Math.max(...documents.map((d) => d.length));
    if (o.maxDocumentChars !== undefined && longest > o.maxDocumentChars) {
      return rerankFaults.tooLongDocument(provider, Math.ceil(longest / 4), o.maxDocumentChars / 4);
    }
    const chars = documents.reduce((s, d) => s + d.length + query.length, 0);
    if (o.maxRequestChars !== undefined && chars > o.maxRequestChars) {
      return rerankFaults.tooLongRequest(provider, Math.ceil(chars / 4), o.maxRequestChars / 4);
    }
    const score = o.score ?? fakeScore;
    return json(
      rerankAnswer(
        provider,
        o.model,
        documents.map((d) => score(query, d)),
        fakeTokens(query, documents),
      ),
    );
  });
}
