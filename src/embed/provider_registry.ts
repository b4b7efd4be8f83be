import type { Invocation } from "./invocation.ts";
import type { Provider } from "./provider.ts";
import type { ProviderEntry } from "./provider_entry.ts";
import { bm25Entry } from "./providers/bm25.ts";
import { tfidfEntry } from "./providers/tfidf.ts";
import { useEntry } from "./providers/use.ts";
import { hfEntry } from "./providers/hf.ts";
import { openaiEntry } from "./providers/openai.ts";
import { jinaEntry, mistralEntry, voyageEntry } from "./providers/data_list.ts";
import { geminiEntry } from "./providers/gemini.ts";
import { cohereEntry } from "./providers/cohere.ts";
import { releaseEntry } from "./providers/release.ts";

/**
 * Every embedding provider the kit knows, in the order error messages list
 * them. Adding one is a file under providers/ exporting a
 * {@link ProviderEntry} (see provider_entry.ts) and one line here, plus its
 * configs in data/invocations.json. Provider files load heavy libraries
 * (TF.js, onnxruntime, the openai SDK) only when a config needs them.
 */
export const PROVIDER_ENTRIES = [
  bm25Entry,
  tfidfEntry,
  useEntry,
  hfEntry,
  openaiEntry,
  voyageEntry,
  geminiEntry,
  cohereEntry,
  mistralEntry,
  jinaEntry,
  // Vectors imported from the paper's released .npz matrices (src/embed/release_embeddings.ts).
  releaseEntry,
] as const;

/** A provider name, as configs give it in data/invocations.json. */
export type ProviderName = typeof PROVIDER_ENTRIES[number]["name"];

/** What a provider factory gets besides the invocation. */
export interface ProviderOptions {
  /** Environment to read keys and URLs from (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** fetch to use for hosted calls (tests pass their own). */
  fetch?: typeof fetch;
  /**
   * The registry to resolve provider names in (default {@link PROVIDER_ENTRIES});
   * a contributor's test passes the built-in list plus its own entry.
   */
  providers?: readonly ProviderEntry[];
}

/** The entry named `name`, or a one-line error listing the known names. */
export function providerEntry(
  name: string,
  entries: readonly ProviderEntry[] = PROVIDER_ENTRIES,
): ProviderEntry {
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    throw new Error(
      `provider "${name}" is not one of ${entries.map((e) => e.name).join(", ")}`,
    );
  }
  return entry;
}

/** Whether the config is a sparse retriever (scored directly, no vectors). */
export function isSparse(
  inv: Invocation,
  entries: readonly ProviderEntry[] = PROVIDER_ENTRIES,
): boolean {
  return entries.find((e) => e.name === inv.provider)?.kind === "sparse";
}

/**
 * What is missing to run a config here: unset env vars (API key, server
 * URL) or a local model folder. Empty when the config can run. Used by
 * `--skip-unavailable`, `embed --list` and profile messages.
 */
export function missingRequirements(
  inv: Invocation,
  env: Record<string, string | undefined> = Deno.env.toObject(),
  entries: readonly ProviderEntry[] = PROVIDER_ENTRIES,
): string[] {
  const missing: string[] = [];
  if (inv.key_env && inv.key_required !== false && !env[inv.key_env]) {
    missing.push(`env var ${inv.key_env} (API key)`);
  }
  if (inv.base_url === undefined && inv.base_url_env && !env[inv.base_url_env]) {
    missing.push(`env var ${inv.base_url_env} (server URL)`);
  }
  const own = entries.find((e) => e.name === inv.provider)?.missing;
  if (own) missing.push(...own(inv, env));
  return missing;
}

/**
 * The provider for a config: dense (`embed(texts, role)`) or sparse
 * (`score(queries, docs)`). Fails with a one-line error naming the missing
 * env var or model file. The provider is looked up in `options.providers`
 * (default: the built-in registry).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { invocationFor } from "./invocations.ts";
 * const p = await providerFor(await invocationFor("bm25"));
 * if (p.kind !== "sparse") throw new Error("bm25 scores texts directly");
 * const scores = await p.score(["sum a list"], ["def total(xs): return sum(xs)", "def f(): pass"]);
 * strictEqual(scores[0] > scores[1], true);
 * ```
 */
export async function providerFor(
  inv: Invocation,
  options: ProviderOptions = {},
): Promise<Provider> {
  const env = options.env ?? Deno.env.toObject();
  const missing = missingRequirements(inv, env, options.providers);
  if (missing.length > 0) {
    throw new Error(`${inv.name}: missing ${missing.join(", ")}`);
  }
  const baseUrl = ((inv.base_url_env && env[inv.base_url_env]) || inv.base_url || "")
    .replace(/\/+$/, "");
  const apiKey = (inv.key_env && env[inv.key_env]) || "";
  const entry = providerEntry(inv.provider, options.providers);
  return await entry.create(inv, {
    env,
    fetch: options.fetch ?? fetch,
    apiKey,
    baseUrl,
    limits: entry.limits ?? {},
    tooLong: entry.tooLong,
  });
}
