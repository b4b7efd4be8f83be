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
 * Mistral `POST /v1/embeddings`: `{model, input: [...], encoding_format}` →
 * `{data: [{embedding, index}], usage: {prompt_tokens, total_tokens}}`
 * (https://docs.mistral.ai/api/#tag/embeddings). mistral-embed has no input types.
 */
export function mistralProvider(inv: Invocation, o: ResolvedOptions): HostedProvider {
  return hostedProvider(inv, o, {
    path: () => "/embeddings",
    headers: bearer,
    body: inputBody,
    parse: parseDataList,
  });
}
