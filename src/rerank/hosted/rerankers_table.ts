import { fileURLToPath } from "node:url";
import { entryFields, readNamedTable } from "../../io/named_table.ts";
import { RERANK_WIRES, type RerankProviderName } from "./wire_formats.ts";

/** Hosted rerank APIs the kit knows how to call: the keys of `RERANK_WIRES` (wire_formats.ts). */
export const RERANK_PROVIDERS = Object.keys(RERANK_WIRES) as readonly RerankProviderName[];

/**
 * What one rerank request may carry, per the provider's documentation; a
 * field left out has no documented value. `tokens_per_request` counts as
 * Voyage defines it: query tokens × documents + the documents' tokens.
 */
export interface RerankLimits {
  documents?: number;
  tokens_per_request?: number;
  tokens_per_document?: number;
  tokens_per_query?: number;
}

/**
 * One hosted reranker, declared as data in `data/rerankers.json` (like the
 * embedding configs in `data/invocations.json`): which API and model, where
 * its key and URL come from, how many of the base config's top results it
 * reorders, and the request limits and retry settings it runs under.
 */
export interface HostedRerankerEntry {
  /** Used in config names `<base>+rerank:<name>` (`[a-z0-9][a-z0-9._-]*`). */
  name: string;
  provider: RerankProviderName;
  /** Model id as the provider spells it. */
  model: string;
  /** Env var holding the API key. */
  key_env: string;
  /** API base URL (the path `/rerank` is appended). */
  base_url?: string;
  /** Env var that, when set, overrides `base_url`; required when `base_url` is absent. */
  base_url_env?: string;
  /** How many of the base config's top results are reranked (default 10). */
  top_k: number;
  limits: RerankLimits;
  /** Per-request timeout in ms (default 60 s). */
  timeout_ms?: number;
  /** Retries after the first attempt (default 20). */
  max_retries?: number;
  /** First backoff delay in ms (default 1 s), doubling per retry with jitter. */
  backoff_ms?: number;
  /** Time one request's retries may wait in all, in ms (default 5 min). */
  retry_budget_ms?: number;
  /** Queries reranked at once, each its own requests (default 4). */
  concurrency?: number;
  /** Extra native request fields merged into every body (e.g. an instruction). */
  params?: Record<string, unknown>;
  /** Documentation page the wire format and limits come from. */
  doc: string;
  notes?: string;
}

/** Path of the committed reranker table. */
export const DEFAULT_RERANKERS_PATH = fileURLToPath(
  new URL("../../../data/rerankers.json", import.meta.url),
);

const KNOWN_KEYS = new Set([
  "name",
  "provider",
  "model",
  "key_env",
  "base_url",
  "base_url_env",
  "top_k",
  "limits",
  "timeout_ms",
  "max_retries",
  "backoff_ms",
  "retry_budget_ms",
  "concurrency",
  "params",
  "doc",
  "notes",
]);
const LIMIT_KEYS = ["documents", "tokens_per_request", "tokens_per_document", "tokens_per_query"];

/**
 * Check one raw table entry and return it typed (with `top_k` and `limits`
 * filled in), or throw a one-line error that starts with `where`.
 */
export function validateReranker(raw: unknown, where: string): HostedRerankerEntry {
  const { e, fail, str } = entryFields(raw, where, KNOWN_KEYS);
  const name = str("name", true)!;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) fail(`name "${name}" must match [a-z0-9][a-z0-9._-]*`);
  const provider = str("provider", true) as RerankProviderName;
  if (!RERANK_PROVIDERS.includes(provider)) {
    fail(`provider "${provider}" is not one of ${RERANK_PROVIDERS.join(", ")}`);
  }
  for (const k of ["model", "key_env", "doc"]) str(k, true);
  for (const k of ["base_url", "base_url_env", "notes"]) str(k);
  if (e.base_url === undefined && e.base_url_env === undefined) {
    fail(`needs "base_url" or "base_url_env"`);
  }
  for (const k of ["top_k", "timeout_ms", "concurrency"]) {
    if (e[k] !== undefined && (!Number.isInteger(e[k]) || (e[k] as number) <= 0)) {
      fail(`"${k}" must be a positive integer`);
    }
  }
  for (const k of ["max_retries", "backoff_ms", "retry_budget_ms"]) {
    if (e[k] !== undefined && (!Number.isInteger(e[k]) || (e[k] as number) < 0)) {
      fail(`"${k}" must be a non-negative integer`);
    }
  }
  if (e.params !== undefined && !isPlainObject(e.params)) fail(`"params" must be an object`);
  if (e.limits !== undefined) {
    if (!isPlainObject(e.limits)) fail(`"limits" must be an object`);
    for (const [k, v] of Object.entries(e.limits as Record<string, unknown>)) {
      if (!LIMIT_KEYS.includes(k)) fail(`"limits.${k}" is not one of ${LIMIT_KEYS.join(", ")}`);
      if (!Number.isInteger(v) || (v as number) <= 0) {
        fail(`"limits.${k}" must be a positive integer`);
      }
    }
  }
  return { ...e, top_k: e.top_k ?? 10, limits: e.limits ?? {} } as unknown as HostedRerankerEntry;
}

function isPlainObject(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/**
 * Load and validate the reranker table (default `data/rerankers.json`).
 * Errors are one line naming the file and the entry (index and name).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const names = (await loadRerankers()).map((r) => r.name);
 * strictEqual(names[0], "cohere-rerank-v3.5"); // then "voyage-rerank-2.5", ...
 * ```
 */
export async function loadRerankers(path = DEFAULT_RERANKERS_PATH): Promise<HostedRerankerEntry[]> {
  return await readNamedTable(path, "rerankers", "reranker table", validateReranker);
}

/** The table entry named `name`, or a one-line error listing the known names. */
export async function rerankerFor(name: string, path?: string): Promise<HostedRerankerEntry> {
  const table = await loadRerankers(path);
  const entry = table.find((r) => r.name === name);
  if (!entry) {
    throw new Error(
      `unknown hosted reranker "${name}"; known: ${
        table.map((r) => r.name).join(", ")
      } (data/rerankers.json)`,
    );
  }
  return entry;
}

/**
 * What is missing to call a reranker here: its API key env var, or the URL
 * env var when the entry has no `base_url`. Empty when it can run.
 */
export function missingRerankerRequirements(
  entry: HostedRerankerEntry,
  env: Record<string, string | undefined>,
): string[] {
  const missing: string[] = [];
  if (!env[entry.key_env]) missing.push(`env var ${entry.key_env} (API key)`);
  if (entry.base_url === undefined && entry.base_url_env && !env[entry.base_url_env]) {
    missing.push(`env var ${entry.base_url_env} (server URL)`);
  }
  return missing;
}

/** Base URL a reranker calls: `base_url_env` when set, else `base_url`, no trailing slash. */
export function rerankerBaseUrl(
  entry: HostedRerankerEntry,
  env: Record<string, string | undefined>,
): string {
  return ((entry.base_url_env && env[entry.base_url_env]) || entry.base_url || "")
    .replace(/\/+$/, "");
}

/**
 * One line per reranker for listings (`embed --list` style): name, provider
 * and model, top k, limits, and whether it can run here or what is missing.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const [cohere] = describeRerankers(await loadRerankers(), {}); // {}: no env var set
 * strictEqual(cohere.endsWith("missing env var COHERE_API_KEY (API key)"), true);
 * ```
 */
export function describeRerankers(
  table: readonly HostedRerankerEntry[],
  env: Record<string, string | undefined> = Deno.env.toObject(),
): string[] {
  const width = Math.max(0, ...table.map((r) => r.name.length));
  return table.map((r) => {
    const limits = Object.entries(r.limits).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`)
      .join(", ") || "no documented limits";
    const missing = missingRerankerRequirements(r, env);
    const status = missing.length === 0 ? "ready" : `missing ${missing.join(", ")}`;
    return `${
      r.name.padEnd(width)
    }  ${r.provider} ${r.model}  top ${r.top_k}  ${limits}  ${status}`;
  });
}
