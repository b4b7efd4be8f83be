import { join } from "node:path";
import { existsSync } from "node:fs";
import { type Invocation, isSparseProvider, type ProviderName } from "./invocations.ts";
import type { Provider, ResolvedOptions } from "./provider.ts";

/** What a provider factory gets besides the invocation. */
export interface ProviderOptions {
  /** Environment to read keys and URLs from (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** fetch to use for hosted calls (tests pass their own). */
  fetch?: typeof fetch;
}

type Factory = (inv: Invocation, options: ResolvedOptions) => Promise<Provider>;

export type { ResolvedOptions };

// Heavy libraries (TF.js, onnxruntime, the openai SDK) load only when a config needs them.
const FACTORIES: Record<ProviderName, Factory> = {
  bm25: async (inv) => (await import("./providers/bm25.ts")).bm25Provider(inv),
  tfidf: async (inv) => (await import("./providers/tfidf.ts")).tfidfProvider(inv),
  use: async (inv) => (await import("./providers/use.ts")).useProvider(inv),
  hf: async (inv, o) =>
    (await import("./providers/hf.ts")).hfProvider(inv, modelsDir(o.env), hfRemote(o.env)),
  openai: async (inv, o) => (await import("./providers/openai.ts")).openaiProvider(inv, o),
  voyage: async (inv, o) => (await import("./providers/data_list.ts")).dataListProvider(inv, o),
  gemini: async (inv, o) => (await import("./providers/gemini.ts")).geminiProvider(inv, o),
  cohere: async (inv, o) => (await import("./providers/cohere.ts")).cohereProvider(inv, o),
  mistral: async (inv, o) => (await import("./providers/data_list.ts")).dataListProvider(inv, o),
  jina: async (inv, o) => (await import("./providers/data_list.ts")).dataListProvider(inv, o),
  release: (inv) =>
    Promise.reject(
      new Error(`${inv.name}: vectors come from the paper's release .npz; there is no API to call`),
    ),
};

/** Whether the config is a sparse retriever (scored directly, no vectors). */
export function isSparse(inv: Invocation): boolean {
  return isSparseProvider(inv.provider);
}

/** Root folder of local ONNX models for `hf` configs (`EXECRET_MODELS`, default `models`). */
export function modelsDir(env: Record<string, string | undefined> = Deno.env.toObject()): string {
  return env.EXECRET_MODELS ?? "models";
}

/** Whether hf configs may download from the Hugging Face Hub (`EXECRET_HF_REMOTE=1`). */
export function hfRemote(env: Record<string, string | undefined> = Deno.env.toObject()): boolean {
  return env.EXECRET_HF_REMOTE === "1";
}

/** Weight file transformers.js loads for a dtype (its `onnx/model<suffix>.onnx` naming). */
export function onnxFileName(dtype = "fp32"): string {
  const suffix: Record<string, string> = {
    fp32: "",
    fp16: "_fp16",
    q8: "_quantized",
    int8: "_int8",
    uint8: "_uint8",
    q4: "_q4",
    q4f16: "_q4f16",
    bnb4: "_bnb4",
  };
  return `onnx/model${suffix[dtype] ?? `_${dtype}`}.onnx`;
}

/**
 * What is missing to run a config here: unset env vars (API key, server
 * URL) or a local model folder. Empty when the config can run. Used by
 * `--skip-unavailable`, `embed --list` and profile messages.
 */
export function missingRequirements(
  inv: Invocation,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): string[] {
  const missing: string[] = [];
  if (inv.key_env && inv.key_required !== false && !env[inv.key_env]) {
    missing.push(`env var ${inv.key_env} (API key)`);
  }
  if (inv.base_url === undefined && inv.base_url_env && !env[inv.base_url_env]) {
    missing.push(`env var ${inv.base_url_env} (server URL)`);
  }
  if (inv.provider === "hf" && !hfRemote(env)) {
    const dir = join(modelsDir(env), inv.model);
    if (!existsSync(dir)) {
      return [
        ...missing,
        `model folder ${dir} (an ONNX export: config.json, tokenizer.json, onnx/)`,
      ];
    }
    for (const file of ["config.json", "tokenizer.json", onnxFileName(inv.dtype)]) {
      if (!existsSync(join(dir, file))) missing.push(`model file ${join(dir, file)}`);
    }
  }
  return missing;
}

/**
 * The provider for a config: dense (`embed(texts, role)`) or sparse
 * (`score(queries, docs)`). Fails with a one-line error naming the missing
 * env var or model file.
 *
 * @example
 * ```ts
 * const p = await providerFor(await invocationFor("bm25"));
 * if (p.kind === "sparse") await p.score(["sum a list"], ["def total(xs): return sum(xs)"]);
 * ```
 */
export async function providerFor(
  inv: Invocation,
  options: ProviderOptions = {},
): Promise<Provider> {
  const env = options.env ?? Deno.env.toObject();
  const missing = missingRequirements(inv, env);
  if (missing.length > 0) {
    throw new Error(`${inv.name}: missing ${missing.join(", ")}`);
  }
  const baseUrl = ((inv.base_url_env && env[inv.base_url_env]) || inv.base_url || "")
    .replace(/\/+$/, "");
  const apiKey = (inv.key_env && env[inv.key_env]) || "";
  return await FACTORIES[inv.provider](inv, {
    env,
    fetch: options.fetch ?? fetch,
    apiKey,
    baseUrl,
  });
}
