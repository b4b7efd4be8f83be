/**
 * What a wire format reads of a reranker's table entry (a
 * `HostedRerankerEntry` of rerankers_table.ts, which imports this file for
 * the provider names, so this file does not import it back).
 */
export interface WireEntry {
  model: string;
  limits: { tokens_per_document?: number };
  params?: Record<string, unknown>;
}

/** One scored document as a rerank API returns it: its position in the request and its score. */
export interface RawResult {
  index: unknown;
  relevance_score: unknown;
}

/** What a rerank answer holds, before validation. */
export interface ParsedAnswer {
  /** The results list (sorted by score by every provider, not in input order), or undefined. */
  results: RawResult[] | undefined;
  /** Tokens the provider reported (0 when it reports none). */
  tokens: number;
  /** Cohere's billed search units (0 for other providers). */
  searchUnits: number;
}

/** A provider's rerank wire format: the request body for a batch and where the scores are in the answer. */
export interface RerankWire {
  /** Request body asking for a score for every one of `documents`. */
  body(entry: WireEntry, query: string, documents: string[]): Record<string, unknown>;
  parse(json: unknown): ParsedAnswer;
}

const num = (v: unknown): number => typeof v === "number" && Number.isFinite(v) ? v : 0;

/**
 * The three documented rerank wire formats. Each asks for as many results
 * as documents sent (`top_n`/`top_k` = batch size), so every document gets
 * a score, and never asks for the documents back (the kit maps by index).
 * Adding a hosted rerank API is one entry here (its keys are the provider
 * names data/rerankers.json may use) plus its rows in that table.
 */
export const RERANK_WIRES = {
  /**
   * Cohere `POST /v2/rerank` {model, query, documents, top_n,
   * max_tokens_per_doc} → {id, results: [{index, relevance_score}], meta:
   * {billed_units: {search_units}, tokens?: {input_tokens}}}
   * (https://docs.cohere.com/reference/rerank).
   */
  cohere: {
    body: (entry, query, documents) => ({
      model: entry.model,
      query,
      documents,
      top_n: documents.length,
      ...(entry.limits.tokens_per_document === undefined
        ? {}
        : { max_tokens_per_doc: entry.limits.tokens_per_document }),
      ...(entry.params ?? {}),
    }),
    parse: (json) => {
      const j = json as {
        results?: unknown;
        meta?: {
          billed_units?: { search_units?: unknown; input_tokens?: unknown };
          tokens?: { input_tokens?: unknown };
        };
      };
      return {
        results: Array.isArray(j?.results) ? j.results : undefined,
        tokens: num(j?.meta?.tokens?.input_tokens ?? j?.meta?.billed_units?.input_tokens),
        searchUnits: num(j?.meta?.billed_units?.search_units),
      };
    },
  },
  /**
   * Voyage `POST /v1/rerank` {query, documents, model, top_k, truncation,
   * return_documents} → {object: "list", data: [{index, relevance_score}],
   * model, usage: {total_tokens}} (https://docs.voyageai.com/reference/reranker-api).
   */
  voyage: {
    body: (entry, query, documents) => ({
      model: entry.model,
      query,
      documents,
      top_k: documents.length,
      truncation: true,
      return_documents: false,
      ...(entry.params ?? {}),
    }),
    parse: (json) => {
      const j = json as { data?: unknown; usage?: { total_tokens?: unknown } };
      return {
        results: Array.isArray(j?.data) ? j.data : undefined,
        tokens: num(j?.usage?.total_tokens),
        searchUnits: 0,
      };
    },
  },
  /**
   * Jina `POST /v1/rerank` {model, query, documents, top_n,
   * return_documents} → {model, usage: {total_tokens}, results: [{index,
   * relevance_score, document?}]} (https://jina.ai/reranker).
   */
  jina: {
    body: (entry, query, documents) => ({
      model: entry.model,
      query,
      documents,
      top_n: documents.length,
      return_documents: false,
      ...(entry.params ?? {}),
    }),
    parse: (json) => {
      const j = json as { results?: unknown; usage?: { total_tokens?: unknown } };
      return {
        results: Array.isArray(j?.results) ? j.results : undefined,
        tokens: num(j?.usage?.total_tokens),
        searchUnits: 0,
      };
    },
  },
} satisfies Record<string, RerankWire>;

/** A hosted rerank provider: a key of {@link RERANK_WIRES}. */
export type RerankProviderName = keyof typeof RERANK_WIRES;

/**
 * Scores in input order from a results list the API sorted by score: each
 * index in `[0, n)` exactly once, each score a finite number. Anything
 * else throws a one-line error (starting with `label`), never a guess.
 */
export function scoresInInputOrder(
  label: string,
  results: RawResult[] | undefined,
  n: number,
): number[] {
  if (results === undefined) throw new Error(`${label}: the answer has no results list`);
  if (results.length !== n) {
    throw new Error(`${label}: got ${results.length} results for ${n} documents`);
  }
  const scores: number[] = new Array(n);
  const seen = new Set<number>();
  for (const r of results) {
    const at = r?.index;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at >= n) {
      throw new Error(`${label}: result index ${JSON.stringify(at)} is not in 0..${n - 1}`);
    }
    if (seen.has(at)) throw new Error(`${label}: result index ${at} appears twice`);
    seen.add(at);
    const score = r.relevance_score;
    if (typeof score !== "number" || !Number.isFinite(score)) {
      throw new Error(
        `${label}: relevance_score ${JSON.stringify(score)} of index ${at} is not a finite number`,
      );
    }
    scores[at] = score;
  }
  return scores;
}

/** Settings of a reranker that shape its scores: the request body without query and documents. */
export function scoreSettings(
  entry: WireEntry & { provider: RerankProviderName },
): Record<string, unknown> {
  const wire: RerankWire = RERANK_WIRES[entry.provider];
  const { query: _q, documents: _d, top_n: _n, top_k: _k, ...rest } = wire.body(entry, "", []);
  return { provider: entry.provider, ...rest };
}
