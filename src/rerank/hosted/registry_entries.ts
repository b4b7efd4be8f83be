import type { RerankerEntry } from "../reranker.ts";
import rerankersJson from "../../../data/rerankers.json" with { type: "json" };
import { DEFAULT_RERANKERS_PATH, validateReranker } from "./rerankers_table.ts";

/**
 * One registry entry per row of `data/rerankers.json`, named as in
 * `<base>+rerank:<name>`. Read when the registry loads (a JSON import, so
 * the registry stays a static list); a bad row fails with the same
 * one-line error as `loadRerankers`.
 */
export const HOSTED_RERANKERS: readonly RerankerEntry[] = rerankersJson.rerankers.map(
  (raw: unknown, i: number) => {
    const label = (raw as { name?: unknown })?.name;
    const entry = validateReranker(
      raw,
      `${DEFAULT_RERANKERS_PATH}: entry ${i}${typeof label === "string" ? ` (${label})` : ""}`,
    );
    return {
      name: entry.name,
      kind: "hosted" as const,
      bases: 1 as const,
      description:
        `${entry.provider} ${entry.model} cross-encoder on the base's top ${entry.top_k} (${entry.key_env})`,
      create: async (o) =>
        (await import("./hosted_reranker.ts")).hostedReranker(entry, {
          fetch: o.fetch,
          env: o.env,
          quiet: o.quiet,
        }),
    };
  },
);
