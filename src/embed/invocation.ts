/**
 * One retriever configuration as data (an entry of data/invocations.json)
 * and the two pure functions every provider applies to it. Kept apart from
 * the table loader (invocations.ts), which checks entries against the
 * provider registry: providers import this file, so it imports no provider.
 */
import type { RequestLimits, Role } from "./provider.ts";
import type { Similarity } from "../common/similarity.ts";

/** How one role (query or document) is sent: a text prefix and native request parameters. */
export interface RoleSettings {
  /** Prepended to the text before it is sent (instructions such as BGE's query prompt). */
  prefix?: string;
  /** Native request parameters for this role, merged into each request body (e.g. `input_type`). */
  params?: Record<string, unknown>;
}

/**
 * One retriever configuration: how a model must be called, as data. Loaded
 * from `data/invocations.json`; see that file for one entry per model with
 * the documentation page its settings come from.
 */
export interface Invocation {
  /** Config name, used in file names and tables (`[a-z0-9][a-z0-9._-]*`). */
  name: string;
  /** A registered provider name (`ProviderName` in registry.ts), checked when the table loads. */
  provider: string;
  /** Model id as the provider spells it (a folder under the models root for `hf`). */
  model: string;
  similarity: Similarity;
  /** Output dimensions every vector must have (checked); required for dense providers. */
  dims?: number;
  /** L2-normalise vectors before storing them (cosine models whose API does not). */
  normalize: boolean;
  query: RoleSettings;
  document: RoleSettings;
  /** Native request parameters sent for both roles (e.g. `output_dimension`). */
  params?: Record<string, unknown>;
  /** Texts per request (the provider's documented limit or less). */
  batch_size?: number;
  /**
   * What one request may carry (texts, tokens summed per request, tokens per
   * input), per the provider's documentation; fields left out come from the
   * provider's defaults (the `limits` of its registry entry). Hosted
   * batches are packed by count and by a token upper bound within these.
   */
  limits?: RequestLimits;
  /** Requests in flight at once (hosted providers). */
  concurrency?: number;
  /** Characters kept of each text (prefix included); longer texts follow `truncation`. */
  max_chars?: number;
  /** `end`: cut at max_chars; `error`: refuse; `provider`: send whole, let the API truncate. */
  truncation?: "end" | "error" | "provider";
  /** Env var holding the API key. */
  key_env?: string;
  /** False for self-hosted servers that need no key (the env var is then optional). */
  key_required?: boolean;
  /** API base URL (default: the provider's public endpoint). */
  base_url?: string;
  /** Env var that, when set, overrides `base_url`; required when `base_url` is absent. */
  base_url_env?: string;
  /** hf: token pooling the model was trained with. */
  pooling?: "mean" | "cls" | "last";
  /** hf: ONNX weight variant (transformers.js dtype, default fp32). */
  dtype?: string;
  /** Per-request timeout (ms) for hosted calls. */
  timeout_ms?: number;
  /** Retries after the first attempt for hosted calls. */
  max_retries?: number;
  /** First backoff delay (ms); doubles per retry, with jitter. */
  backoff_ms?: number;
  /**
   * Time one request's retries may wait in all (ms; default 5 min): at least
   * a full rate-limit window for a trial key that sends no Retry-After.
   */
  retry_budget_ms?: number;
  /** bm25: term-frequency saturation and length normalisation. */
  k1?: number;
  b?: number;
  /** Documentation page the settings come from. */
  doc: string;
  /** Free-text remarks (why these settings). */
  notes?: string;
}

/**
 * The exact text sent for `text` in `role`: the role's prefix, then the text,
 * cut to `max_chars` when the policy is `end`. The vector cache keys on this.
 */
export function textToSend(inv: Invocation, text: string, role: Role): string {
  const full = (inv[role].prefix ?? "") + text;
  const max = inv.max_chars;
  if (max === undefined || full.length <= max || inv.truncation === "provider") return full;
  if (inv.truncation === "error") {
    throw new Error(
      `${inv.name}: a ${role} text has ${full.length} characters, over max_chars ${max} (truncation "error")`,
    );
  }
  // Do not split a surrogate pair.
  let cut = max;
  const code = full.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return full.slice(0, cut);
}

/** Native request parameters for a role: shared params overlaid with the role's own. */
export function roleParams(inv: Invocation, role: Role): Record<string, unknown> {
  return { ...(inv.params ?? {}), ...(inv[role].params ?? {}) };
}
