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
 * Jina AI `POST /v1/embeddings`: `{model, input: [...], normalized,
 * embedding_type, task?}` (task such as `retrieval.query` only for v3+
 * models) → `{data: [{embedding, index}], usage: {total_tokens}}`
 * (https://jina.ai/embeddings/).
 */
export function jinaProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  return hostedProvider(inv, o, {
    path: () => "/embeddings",
    headers: bearer,
    body: inputBody,
    parse: parseDataList,
  });
}
