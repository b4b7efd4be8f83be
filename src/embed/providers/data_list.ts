import type { Invocation } from "../invocations.ts";
import type { ResolvedOptions } from "../provider.ts";
import {
  bearer,
  type HostedProvider,
  hostedProvider,
  inputBody,
  parseDataList,
} from "../hosted.ts";

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
