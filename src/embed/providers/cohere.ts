import { type Invocation, roleParams } from "../invocation.ts";
import type { ResolvedOptions } from "../provider.ts";
import { bearer, type HostedProvider, hostedProvider } from "../hosted.ts";
import { defineProvider } from "../provider_entry.ts";

/**
 * Cohere v2 `POST /v2/embed`: `{model, texts: [...], input_type:
 * "search_query" | "search_document", embedding_types: ["float"],
 * output_dimension, truncate}` → `{embeddings: {float: [[...]]}, meta:
 * {billed_units: {input_tokens}}}` (https://docs.cohere.com/reference/embed).
 */
export function cohereProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  return hostedProvider(inv, o, {
    path: () => "/embed",
    headers: bearer,
    body: (inv, texts, role) => ({ model: inv.model, texts, ...roleParams(inv, role) }),
    parse: (json) => {
      const j = json as {
        embeddings?: { float?: number[][] };
        meta?: { billed_units?: { input_tokens?: number } };
      };
      return {
        vectors: j?.embeddings?.float,
        tokens: j?.meta?.billed_units?.input_tokens ?? 0,
      };
    },
  });
}

/** Registry entry: 96 texts per call (docs.cohere.com/reference/embed). */
export const cohereEntry = defineProvider({
  name: "cohere",
  kind: "dense",
  hosted: true,
  limits: { texts: 96 },
  create: (inv, o) => Promise.resolve(cohereProvider(inv, o)),
});
