/**
 * The retriever interface every provider implements (see the invocation
 * table in data/invocations.json for how each configuration is called).
 *
 * Dense providers turn texts into vectors; the embed stage stores them in
 * `out/embeddings/<config>.arrow` and the score stage compares them. Sparse
 * retrievers (bm25, tfidf) have no useful vector, so they score directly
 * through the same scoring entry point.
 */

/** Whether a text is the search query or a pool document. */
export type Role = "query" | "document";

/** Vectors for a list of texts, and which of them the kit had to cut to fit the provider. */
export interface EmbedReport {
  vectors: Float32Array[];
  /** Indices (into the texts) of inputs truncated after the provider said they were too long. */
  truncated: number[];
}

/** A dense embedding provider: one small method, as in MTEB's `encode`. */
export interface DenseProvider {
  kind: "dense";
  /** Embed texts in a role; one Float32Array per text, in order. */
  embed(texts: string[], role: Role): Promise<Float32Array[]>;
  /** The same, also naming the inputs that were truncated (hosted providers). */
  embedReport?(texts: string[], role: Role): Promise<EmbedReport>;
}

/**
 * A dense provider's vectors for `texts` with the inputs it truncated: its
 * `embedReport` when it has one, else its vectors and none truncated.
 */
export async function embedWithReport(
  provider: DenseProvider,
  texts: string[],
  role: Role,
): Promise<EmbedReport> {
  return provider.embedReport
    ? await provider.embedReport(texts, role)
    : { vectors: await provider.embed(texts, role), truncated: [] };
}

/** A sparse/lexical retriever scoring every query against every document. */
export interface SparseProvider {
  kind: "sparse";
  /**
   * Scores of each query against each document, row-major
   * (`scores[q * docs.length + d]`), higher is better.
   */
  score(queries: string[], docs: string[]): Promise<Float32Array>;
}

/** Either kind of provider. */
export type Provider = DenseProvider | SparseProvider;

/**
 * Options a provider is built with: the environment resolved and the key and
 * base URL looked up (by the registry, which builds providers; kept here so
 * providers need not import the registry that imports them).
 */
export interface ResolvedOptions {
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
  /** The API key (hosted), "" when none is needed. */
  apiKey: string;
  /** The base URL (hosted), without a trailing slash. */
  baseUrl: string;
  /** The provider's documented request limits (its registry entry's); a config's `limits` override them. */
  limits: RequestLimits;
  /** What the provider's too-long errors say, when too_long.ts does not know its wording. */
  tooLong?: RegExp;
}

/**
 * How much one request may carry, per the provider's documentation: texts
 * per request, tokens summed over the request, tokens per input. Any field
 * may be absent (no documented limit). Set per config in the invocation
 * table as `limits`; the provider's registry entry fills what a config leaves out.
 */
export interface RequestLimits {
  texts?: number;
  tokens_per_request?: number;
  tokens_per_input?: number;
}
