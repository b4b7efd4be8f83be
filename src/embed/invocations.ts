import { fileURLToPath } from "node:url";
import type { Role, Similarity } from "./provider.ts";
import { entryFields, readNamedTable } from "../io/named_table.ts";

/** Providers the kit knows how to call; each has one module under `providers/`. */
export const PROVIDERS = [
  "bm25",
  "tfidf",
  "use",
  "hf",
  "openai",
  "voyage",
  "gemini",
  "cohere",
  "mistral",
  "jina",
  // Vectors imported from the paper's released .npz matrices (src/release/release_embeddings.ts).
  "release",
] as const;

/** A provider name. */
export type ProviderName = typeof PROVIDERS[number];

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
  provider: ProviderName;
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
   * provider's defaults (`PROVIDER_LIMITS` in request_budget.ts). Hosted
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
  /** bm25: term-frequency saturation and length normalisation. */
  k1?: number;
  b?: number;
  /** Documentation page the settings come from. */
  doc: string;
  /** Free-text remarks (why these settings). */
  notes?: string;
}

/** Path of the committed invocation table. */
export const DEFAULT_INVOCATIONS_PATH = fileURLToPath(
  new URL("../../data/invocations.json", import.meta.url),
);

const SPARSE = new Set<ProviderName>(["bm25", "tfidf"]);
const KNOWN_KEYS = new Set([
  "name",
  "provider",
  "model",
  "similarity",
  "dims",
  "normalize",
  "query",
  "document",
  "params",
  "batch_size",
  "limits",
  "concurrency",
  "max_chars",
  "truncation",
  "key_env",
  "key_required",
  "base_url",
  "base_url_env",
  "pooling",
  "dtype",
  "timeout_ms",
  "max_retries",
  "backoff_ms",
  "k1",
  "b",
  "doc",
  "notes",
]);

/**
 * Check one raw table entry and return it typed, or throw a one-line error
 * naming the file and the entry.
 */
export function validateInvocation(raw: unknown, where: string): Invocation {
  const { e, fail, str } = entryFields(raw, where, KNOWN_KEYS);
  const int = (k: string) => {
    if (e[k] === undefined) return;
    if (!Number.isInteger(e[k]) || (e[k] as number) <= 0) fail(`"${k}" must be a positive integer`);
  };
  const name = str("name", true)!;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) fail(`name "${name}" must match [a-z0-9][a-z0-9._-]*`);
  const provider = str("provider", true) as ProviderName;
  if (!PROVIDERS.includes(provider)) {
    fail(`provider "${provider}" is not one of ${PROVIDERS.join(", ")}`);
  }
  str("model", true);
  str("doc", true);
  for (const k of ["key_env", "base_url", "base_url_env", "dtype", "notes"]) str(k);
  if (e.similarity !== "cosine" && e.similarity !== "dot") {
    fail(`"similarity" must be cosine or dot`);
  }
  if (typeof e.normalize !== "boolean") fail(`"normalize" must be true or false`);
  for (const k of ["dims", "batch_size", "concurrency", "max_chars", "timeout_ms"]) int(k);
  for (const k of ["max_retries", "backoff_ms"]) {
    if (e[k] !== undefined && (!Number.isInteger(e[k]) || (e[k] as number) < 0)) {
      fail(`"${k}" must be a non-negative integer`);
    }
  }
  for (const k of ["k1", "b"]) {
    if (e[k] !== undefined && (typeof e[k] !== "number" || (e[k] as number) < 0)) {
      fail(`"${k}" must be a non-negative number`);
    }
  }
  if (e.key_required !== undefined && typeof e.key_required !== "boolean") {
    fail(`"key_required" must be true or false`);
  }
  if (
    e.truncation !== undefined && !["end", "error", "provider"].includes(e.truncation as string)
  ) {
    fail(`"truncation" must be end, error or provider`);
  }
  if (e.pooling !== undefined && !["mean", "cls", "last"].includes(e.pooling as string)) {
    fail(`"pooling" must be mean, cls or last`);
  }
  if (e.params !== undefined && !isPlainObject(e.params)) fail(`"params" must be an object`);
  if (e.limits !== undefined) {
    if (!isPlainObject(e.limits)) fail(`"limits" must be an object`);
    for (const [k, v] of Object.entries(e.limits as Record<string, unknown>)) {
      if (!["texts", "tokens_per_request", "tokens_per_input"].includes(k)) {
        fail(`"limits.${k}" is not texts, tokens_per_request or tokens_per_input`);
      }
      if (!Number.isInteger(v) || (v as number) <= 0) {
        fail(`"limits.${k}" must be a positive integer`);
      }
    }
  }
  for (const role of ["query", "document"] as const) {
    const r = e[role];
    if (!isPlainObject(r)) fail(`"${role}" must be an object with optional prefix and params`);
    const rs = r as Record<string, unknown>;
    for (const key of Object.keys(rs)) {
      if (key !== "prefix" && key !== "params") fail(`"${role}.${key}" is not prefix or params`);
    }
    if (rs.prefix !== undefined && typeof rs.prefix !== "string") {
      fail(`"${role}.prefix" must be a string`);
    }
    if (rs.params !== undefined && !isPlainObject(rs.params)) {
      fail(`"${role}.params" must be an object`);
    }
  }
  if (!SPARSE.has(provider) && e.dims === undefined) fail(`dense provider needs "dims"`);
  if (["openai", "voyage", "gemini", "cohere", "mistral", "jina"].includes(provider)) {
    if (e.key_env === undefined) fail(`hosted provider needs "key_env"`);
    if (provider === "openai" && e.base_url === undefined && e.base_url_env === undefined) {
      fail(`openai provider needs "base_url" or "base_url_env"`);
    }
  }
  return e as unknown as Invocation;
}

function isPlainObject(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

const loaded = new Map<string, Promise<Invocation[]>>();

/**
 * Load and validate the invocation table (default `data/invocations.json`).
 * Errors are one line naming the file and the entry (index and name).
 *
 * @example
 * ```ts
 * const table = await loadInvocations();
 * table.map((i) => i.name); // ["bm25", "tfidf", "use", ...]
 * ```
 */
export function loadInvocations(path: string = DEFAULT_INVOCATIONS_PATH): Promise<Invocation[]> {
  let p = loaded.get(path);
  if (!p) {
    p = readInvocations(path);
    loaded.set(path, p);
    p.catch(() => loaded.delete(path));
  }
  return p;
}

async function readInvocations(path: string): Promise<Invocation[]> {
  return await readNamedTable(path, "invocations", "invocation table", validateInvocation);
}

/** The table entry named `name`, or a one-line error listing the known names. */
export async function invocationFor(name: string, path?: string): Promise<Invocation> {
  const table = await loadInvocations(path);
  const inv = table.find((i) => i.name === name);
  if (!inv) {
    throw new Error(
      `unknown config "${name}"; known: ${
        table.map((i) => i.name).join(", ")
      } (data/invocations.json)`,
    );
  }
  return inv;
}

/** Whether the config scores texts directly (bm25, tfidf) rather than producing vectors. */
export function isSparseProvider(provider: string): boolean {
  return SPARSE.has(provider as ProviderName);
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

/**
 * How much one request may carry, per the provider's documentation: texts
 * per request, tokens summed over the request, tokens per input. Any field
 * may be absent (no documented limit). Set per config in the invocation
 * table as `limits`; {@link PROVIDER_LIMITS} fills what an entry leaves out.
 */
export interface RequestLimits {
  texts?: number;
  tokens_per_request?: number;
  tokens_per_input?: number;
}
