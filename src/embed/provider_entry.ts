import type { Invocation } from "./invocation.ts";
import type { RequestLimits } from "./provider.ts";
import type { Provider, ResolvedOptions } from "./provider.ts";

/**
 * One embedding provider as the registry knows it: how to build it and what
 * the rest of the kit needs to know about it without building it (whether
 * it gives vectors, whether it needs a key or a server URL, its documented
 * request limits, whether it may run in worker processes). A provider file
 * exports one of these; registry.ts lists it in `PROVIDER_ENTRIES`.
 */
export interface ProviderEntry<N extends string = string> {
  /** The name configs give as `provider` in data/invocations.json. */
  name: N;
  /** `dense`: vectors (configs need `dims`); `sparse`: scores texts directly, no file. */
  kind: "dense" | "sparse";
  /** Called over HTTP with an API key: configs must name `key_env`. */
  hosted: boolean;
  /** No public endpoint: configs must give `base_url` or `base_url_env`. */
  needsBaseUrl?: boolean;
  /**
   * The provider's documented request limits (texts, tokens per request,
   * tokens per input); a config's own `limits` override them field by field.
   */
  limits?: RequestLimits;
  /**
   * The model runs on this machine and is loaded once per process, so the
   * embed stage may split its batches over worker processes.
   */
  parallel?: boolean;
  /**
   * What the API's 400/413/422 answers say when a batch or one input is too
   * long (the batch is then split, the input cut); the built-in hosted
   * providers' wording is in too_long.ts, shared with the rerank APIs.
   */
  tooLong?: RegExp;
  /** npm packages (deno.json imports) whose pinned versions embedding files record. */
  libraries?: readonly string[];
  /** Requirements beyond env vars that are missing here (e.g. a local model folder). */
  missing?(inv: Invocation, env: Record<string, string | undefined>): string[];
  /** Load what the first batch would (a worker says "ready" once this resolved). */
  warm?(): Promise<void>;
  /**
   * Build the provider for a config. Load heavy libraries here with
   * `await import(...)`, so that listing the registry stays cheap.
   */
  create(inv: Invocation, options: ResolvedOptions): Promise<Provider>;
}

/**
 * Declare a provider entry, keeping its name as a literal type so that
 * `ProviderName` can be derived from the registry's list.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { bm25Provider } from "./providers/bm25.ts";
 * const bm25Entry = defineProvider({
 *   name: "bm25",
 *   kind: "sparse",
 *   hosted: false,
 *   create: (inv) => Promise.resolve(bm25Provider(inv)),
 * });
 * const name: "bm25" = bm25Entry.name; // the name stays a literal type
 * strictEqual(name, "bm25");
 * ```
 */
export function defineProvider<N extends string>(entry: ProviderEntry<N>): ProviderEntry<N> {
  return entry;
}
