/**
 * The reranker interface: a reranker turns one or two base configs' rankings
 * into a new config's ranking, so every table, test and page of the kit
 * applies to it unchanged. Kinds: `exec` (runs candidates on the query's
 * visible tests), `fusion` (combines two base rankings), `hosted` (a
 * cross-encoder behind an HTTP API), `local` (any other one-base reranker
 * that runs in-process, named `<base>+<name>`).
 */
import type { TestOutcome } from "../oracle/outcome.ts";

/** One candidate snippet of a base ranking. */
export interface RerankCandidate {
  corpus_id: string;
  /** The snippet's code, as in the corpus table. */
  code: string;
  /** 1-based rank in the base config's ranking. */
  rank: number;
  /** The base config's score. */
  score: number;
}

/** One query as a reranker sees it. */
export interface RerankQuery {
  query_id: string;
  task_id: string;
  /** The query text (the task's natural-language description). */
  query: string;
  entry_point: string;
  /** The task's setup, run after each snippet's code and before its tests (the oracle's order). */
  setup: string;
  /**
   * Per base config (one for `exec`/`hosted`, two for `fusion`, in the order
   * of `RerankInput.bases`), its top-k candidates in base order (rank 1 first).
   */
  rankings: RerankCandidate[][];
  /**
   * The test statements the reranker may run: the visible tests only (the
   * docstring examples, or the visible share of a seeded split). Never a
   * hidden test; the `exec` reranker's runner checks it on every call.
   */
  visible_tests: string[];
}

/** What a reranker is asked to do for one reranked config. */
export interface RerankInput {
  /** The reranked config's name, e.g. `bm25+exec`, `rrf:bm25+tfidf`, `use+rerank:cohere`. */
  config: string;
  /** The base config(s) it reranks. */
  bases: string[];
  /** How many of each base ranking's top candidates are given (and reordered). */
  k: number;
  /** The queries, sorted by query_id. */
  queries: RerankQuery[];
}

/**
 * What reranking one query cost. Counts are what the reranker needs for the
 * query whether or not a cache served it (so they are the same on every
 * rerun); `oracle_seconds` is a measurement and is written apart from the
 * deterministic tables.
 */
export interface RerankCost {
  /** Suites (one snippet against a list of tests) the reranker needed. */
  suites: number;
  /** (snippet, test) pairs the reranker needed. */
  tests: number;
  /** Wall time of the suites that ran now (0 when all came from the cache). */
  oracle_seconds: number;
  /** API requests the reranker needed (hosted). */
  api_calls: number;
  /** Tokens billed or counted for those requests (hosted; 0 when unknown). */
  tokens: number;
  /** Cohere's billed search units for those requests (what it bills rerank by; else absent). */
  search_units?: number;
}

/** One query's new order. */
export interface RerankedQuery {
  query_id: string;
  /**
   * The new order, best first: a permutation of the base's top-k for `exec`
   * and `hosted`, the fused list (the union of both bases' top-k) for
   * `fusion`. `score` is the reranker's own (pass share, fused score,
   * relevance score).
   */
  order: { corpus_id: string; score: number }[];
  cost: RerankCost;
}

/** A reranker's answer: one entry per input query, in input order. */
export interface RerankResult {
  queries: RerankedQuery[];
}

/** A reranker: one method, like an embedding provider's `embed`. */
export interface Reranker {
  /** Registry name, e.g. `exec`, `rrf`, `cohere`. */
  name: string;
  kind: "exec" | "fusion" | "hosted" | "local";
  rerank(input: RerankInput): Promise<RerankResult>;
}

/** A zero cost, to spread and fill. */
export function zeroCost(): RerankCost {
  return { suites: 0, tests: 0, oracle_seconds: 0, api_calls: 0, tokens: 0 };
}

/** What a reranker factory gets: the stage's settings, whichever it needs. */
export interface RerankerOptions {
  /** The RRF constant (`rrf` only; default 60, as in Cormack et al. 2009). */
  rrfK: number;
  /** Oracle runtime and per-test timeout (`exec` only). */
  runtime: "pyodide" | "native";
  timeoutMs: number;
  quiet: boolean;
  /** Environment to read keys and URLs from (hosted; default the process environment). */
  env?: Record<string, string | undefined>;
  /** fetch for hosted calls (tests pass their own). */
  fetch?: typeof fetch;
  /**
   * Runs one suite for the `exec` reranker. The stage passes a runner
   * wrapped by the hidden-test guard (hidden_guard.ts); tests pass their own.
   */
  runSuite?: RunSuite;
}

/** One reranker the kit knows, with its metadata (like ranx's metric table). */
export interface RerankerEntry {
  /** The name in config names: `exec`, `rrf`, or a hosted name after `+rerank:`. */
  name: string;
  kind: Reranker["kind"];
  /** How many base configs it takes. */
  bases: 1 | 2;
  /** One line for the report and `--help`. */
  description: string;
  create(options: RerankerOptions): Promise<Reranker>;
}

/** One suite the exec reranker asks for: a candidate against visible tests. */
export interface ExecJob {
  task_id: string;
  setup: string;
  code: string;
  tests: string[];
}

/** Runs one suite; outcomes one per test, in order. */
export type RunSuite = (job: ExecJob) => Promise<{ outcomes: TestOutcome[] }>;
