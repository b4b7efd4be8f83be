import { type Invocation, roleParams } from "../invocation.ts";
import type { ResolvedOptions } from "../provider.ts";
import { type HostedProvider, hostedProvider } from "../hosted.ts";
import { defineProvider } from "../provider_entry.ts";

/**
 * Gemini `POST /v1beta/models/{model}:batchEmbedContents` with header
 * `x-goog-api-key`: `{requests: [{model: "models/{model}", content: {parts:
 * [{text}]}, taskType, outputDimensionality}]}` → `{embeddings: [{values}]}`
 * (https://ai.google.dev/api/embeddings). gemini-embedding-2 takes its task
 * as a text prefix instead of taskType (see the invocation table).
 */
export function geminiProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  return hostedProvider(inv, o, {
    path: (inv) => `/models/${inv.model}:batchEmbedContents`,
    headers: (key) => ({ "x-goog-api-key": key }),
    body: (inv, texts, role) => {
      const params = roleParams(inv, role);
      return {
        requests: texts.map((text) => ({
          model: `models/${inv.model}`,
          content: { parts: [{ text }] },
          ...params,
        })),
      };
    },
    parse: (json) => {
      const j = json as { embeddings?: { values?: number[] }[] };
      return {
        vectors: Array.isArray(j?.embeddings) ? j.embeddings.map((e) => e?.values!) : undefined,
        tokens: 0,
      };
    },
  });
}

/**
 * Registry entry: 100 requests per batchEmbedContents call, 2,048 tokens per
 * input for gemini-embedding-001 (ai.google.dev/gemini-api/docs/embeddings).
 */
export const geminiEntry = defineProvider({
  name: "gemini",
  kind: "dense",
  hosted: true,
  limits: { texts: 100, tokens_per_input: 2048 },
  create: (inv, o) => Promise.resolve(geminiProvider(inv, o)),
});
