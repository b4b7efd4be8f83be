import type { RerankerEntry } from "./reranker.ts";

/**
 * Every reranker. Adding one is a file exporting a {@link RerankerEntry} and
 * one line here. Config names follow the entry: a one-base reranker is
 * `<base>+<name>` (like `bm25+exec`), a two-base one `<name>:<a>+<b>` (like
 * `rrf:bm25+tfidf`); hosted rerankers (rows of data/rerankers.json, no code)
 * are `<base>+rerank:<name>`.
 */
export const RERANKERS: readonly RerankerEntry[] = [
  {
    name: "exec",
    kind: "exec",
    bases: 1,
    description: "run the base's top k on the visible tests; passing snippets first",
    create: async (o) => (await import("./exec.ts")).execReranker(o),
  },
  {
    name: "rrf",
    kind: "fusion",
    bases: 2,
    description: "reciprocal-rank fusion of two configs (Cormack et al. 2009)",
    create: async (o) => (await import("./rrf.ts")).rrfReranker(o.rrfK),
  },
  ...(await import("./hosted/registry_entries.ts")).HOSTED_RERANKERS,
];

/** A reranked config's name taken apart. */
export interface RerankSpec {
  /** The full config name. */
  config: string;
  /** The registry entry. */
  entry: RerankerEntry;
  /** Base configs, in the order the name gives them. */
  bases: string[];
  /** Top k of each base to rerank (`@<k>` in the name; default 10). */
  k: number;
}

/** Default number of base candidates reranked (the rankings table keeps 10). */
export const DEFAULT_RERANK_K = 10;

/**
 * Parse a reranked config name: `<base>+<name>` (one-base rerankers such as
 * `exec`), `<name>:<a>+<b>` (two-base ones such as `rrf`),
 * `<base>+rerank:<name>` (hosted), each with an optional `@<k>` (top k,
 * 1–10) at the end. `entries` is the registry the names are looked up in.
 * Throws a one-line error naming the config on anything else.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * deepStrictEqual(parseRerankConfig("bm25+exec").bases, ["bm25"]);
 * strictEqual(parseRerankConfig("rrf:bm25+tfidf@5").k, 5);
 * ```
 */
export function parseRerankConfig(
  config: string,
  entries: readonly RerankerEntry[] = RERANKERS,
): RerankSpec {
  const fail = (why: string) => new Error(`reranked config "${config}": ${why}`);
  let name = config, k = DEFAULT_RERANK_K;
  const at = /@(\d+)$/.exec(config);
  if (at) {
    k = Number(at[1]);
    if (k < 1 || k > 10) throw fail(`top k must be 1–10 (rankings keep 10), got ${k}`);
    name = config.slice(0, at.index);
  }
  const find = (n: string) => {
    const e = entries.find((x) => x.name === n);
    if (!e) throw fail(`unknown reranker "${n}" (known: ${entries.map((x) => x.name).join(", ")})`);
    return e;
  };
  let entry: RerankerEntry, bases: string[];
  // Config names cannot hold ":", so a leading `<name>:` can only name a reranker.
  const prefix = /^([a-z0-9][a-z0-9._-]*):/.exec(name);
  const fusion = prefix && entries.find((x) => x.name === prefix[1] && x.bases === 2);
  const plus = name.lastIndexOf("+");
  const single = entries.find((x) =>
    x.name === name.slice(plus + 1) && x.bases === 1 && x.kind !== "hosted"
  );
  if (fusion) {
    entry = fusion;
    bases = name.slice(prefix[0].length).split("+");
    if (bases.length !== 2 || bases.some((b) => b === "")) {
      throw fail(`${entry.name} takes two configs: ${entry.name}:<a>+<b>`);
    }
    if (bases[0] === bases[1]) throw fail(`${entry.name} of a config with itself`);
  } else if (name.includes("+rerank:")) {
    const i = name.lastIndexOf("+rerank:");
    entry = find(name.slice(i + 8));
    if (entry.kind !== "hosted") throw fail(`"${entry.name}" is not a hosted reranker`);
    bases = [name.slice(0, i)];
  } else if (plus >= 0 && single) {
    entry = single;
    bases = [name.slice(0, plus)];
  } else {
    throw fail("not <base>+exec, rrf:<a>+<b> or <base>+rerank:<name>");
  }
  if (bases.some((b) => b === "" || b.includes("+"))) {
    throw fail("a base config is empty or reranked");
  }
  if (bases.length !== entry.bases) throw fail(`${entry.name} takes ${entry.bases} base config(s)`);
  return { config, entry, bases, k };
}
