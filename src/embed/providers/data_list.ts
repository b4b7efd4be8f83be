import type { Invocation } from "../invocation.ts";
import type { ResolvedOptions } from "../provider.ts";
import {
  bearer,
  type HostedProvider,
  hostedProvider,
  inputBody,
  parseDataList,
} from "../hosted.ts";
import { defineProvider } from "../provider_entry.ts";

/**
 * The wire format Voyage, Mistral and Jina share with OpenAI: `POST
 * <base>/embeddings` with a bearer key and `{model, input: [...], ...}` plus
 * each API's own parameters from the invocation table, answered by
 * `{data: [{embedding, index}], usage: {...}}`. What differs between them is
 * data (base URL, parameters), not code:
 * - Voyage: `input_type` "query" | "document", `output_dimension`,
 *   `output_dtype`, `truncation` (https://docs.voyageai.com/reference/embeddings-api).
 * - Mistral: `encoding_format`; mistral-embed has no input types
 *   (https://docs.mistral.ai/api/#tag/embeddings).
 * - Jina: `normalized`, `embedding_type`, and `task` such as `retrieval.query`
 *   for v3+ models only (https://jina.ai/embeddings/).
 */
export function dataListProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  return hostedProvider(inv, o, {
    path: () => "/embeddings",
    headers: bearer,
    body: inputBody,
    parse: parseDataList,
  });
}

/**
 * Registry entry for Voyage: 1,000 texts and 120,000 tokens per request for
 * voyage-code-3, 32,000-token context (docs.voyageai.com/reference/embeddings-api).
 */
export const voyageEntry = defineProvider({
  name: "voyage",
  kind: "dense",
  hosted: true,
  limits: { texts: 1000, tokens_per_request: 120_000, tokens_per_input: 32_000 },
  create: (inv, o) => Promise.resolve(dataListProvider(inv, o)),
});

/**
 * Registry entry for Mistral: 16,384 tokens per batch (its 400 reads "Too
 * many tokens in batch. Max is 16384"), 8,192 per input (docs.mistral.ai).
 */
export const mistralEntry = defineProvider({
  name: "mistral",
  kind: "dense",
  hosted: true,
  limits: { tokens_per_request: 16_384, tokens_per_input: 8192 },
  create: (inv, o) => Promise.resolve(dataListProvider(inv, o)),
});

/** Registry entry for Jina: 8,192 tokens per input for jina-embeddings-v2 (jina.ai/embeddings). */
export const jinaEntry = defineProvider({
  name: "jina",
  kind: "dense",
  hosted: true,
  limits: { tokens_per_input: 8192 },
  create: (inv, o) => Promise.resolve(dataListProvider(inv, o)),
});
