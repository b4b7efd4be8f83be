import type { Invocation } from "../invocations.ts";
import type { ResolvedOptions } from "../registry.ts";
import {
  bearer,
  type HostedProvider,
  hostedProvider,
  inputBody,
  parseDataList,
} from "../hosted.ts";

/**
 * Voyage AI `POST /v1/embeddings`: `{model, input: [...], input_type:
 * "query" | "document", output_dimension, output_dtype, truncation}` →
 * `{data: [{embedding, index}], usage: {total_tokens}}`
 * (https://docs.voyageai.com/reference/embeddings-api).
 */
export function voyageProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  return hostedProvider(inv, o, {
    path: () => "/embeddings",
    headers: bearer,
    body: inputBody,
    parse: parseDataList,
  });
}
