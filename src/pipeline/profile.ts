import { join } from "node:path";
import { UserError } from "../io/user_error.ts";
import { parseRerankConfig } from "../rerank/reranker_registry.ts";

/** A run's settings: which sources, configs, seeds and limits (data/profiles/*.json). */
export interface Profile {
  name: string;
  description: string;
  sources: string[];
  mutation_seed: number;
  /** Also run the labelled extension operators (optional field; false when absent). */
  mutation_extensions: boolean;
  runtime: "pyodide" | "native";
  timeout_ms: number;
  max_distractors: number;
  configs: string[];
  ks: number[];
  bootstrap: number;
  seed: number;
  /** Build the report site at the end of `reproduce`. */
  site: boolean;
  /**
   * The paper's release a bare `release` source means, `[REPO][@REVISION]`
   * (optional; default the release the kit was built against).
   */
  release?: string;
  /**
   * Reranked configs the rerank stage adds: `<base>+exec`, `rrf:<a>+<b>`,
   * `<base>+rerank:<name>` (optional; none when absent). Bases must be configs.
   */
  rerankers?: string[];
  /**
   * The user's own invocation files (`--invocations FILE`) whose configs the
   * run names (optional): recorded so that whatever recomputes under this
   * profile later (the site's data loaders) reads them too.
   */
  invocations?: string[];
}

const PROFILE_DIR = new URL("../../data/profiles/", import.meta.url);

/** Names of the profiles shipped in data/profiles. */
export function profileNames(): string[] {
  return [...Deno.readDirSync(PROFILE_DIR)]
    .filter((e) => e.isFile && e.name.endsWith(".json"))
    .map((e) => e.name.slice(0, -5))
    .sort();
}

/**
 * Load a profile by name (data/profiles/<name>.json) or by path, and check
 * every field, so a typo fails before an hour of work rather than after.
 */
export function loadProfile(nameOrPath: string): Profile {
  const isPath = nameOrPath.endsWith(".json") || nameOrPath.includes("/");
  const path = isPath ? nameOrPath : join(PROFILE_DIR.pathname, `${nameOrPath}.json`);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    throw new UserError(
      `unknown profile "${nameOrPath}" (known: ${profileNames().join(", ")}; or a path to a .json)`,
    );
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${path}: not valid JSON (${(e as Error).message})`);
  }
  return validateProfile(raw, path);
}

/** Check a parsed profile's fields; errors name the file and the field. */
export function validateProfile(raw: Record<string, unknown>, where: string): Profile {
  const bad = (field: string, want: string) =>
    new UserError(`${where}: field "${field}" must be ${want}, got ${JSON.stringify(raw[field])}`);
  const str = (f: string) => {
    if (typeof raw[f] !== "string") throw bad(f, "a string");
    return raw[f] as string;
  };
  const int = (f: string, min: number) => {
    const v = raw[f];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
      throw bad(f, `an integer >= ${min}`);
    }
    return v;
  };
  const strings = (f: string) => {
    const v = raw[f];
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "string")) {
      throw bad(f, "a non-empty list of strings");
    }
    return v as string[];
  };
  const runtime = str("runtime");
  if (runtime !== "pyodide" && runtime !== "native") throw bad("runtime", '"pyodide" or "native"');
  const ks = raw.ks;
  if (
    !Array.isArray(ks) || ks.length === 0 ||
    ks.some((k) => typeof k !== "number" || !Number.isInteger(k) || k < 1)
  ) {
    throw bad("ks", "a non-empty list of positive integers");
  }
  if (typeof raw.site !== "boolean") throw bad("site", "true or false");
  if (raw.release !== undefined && typeof raw.release !== "string") {
    throw bad("release", "a string REPO@REVISION");
  }
  const extensions = raw.mutation_extensions ?? false;
  if (typeof extensions !== "boolean") throw bad("mutation_extensions", "true or false");
  if (raw.rerankers !== undefined) {
    const r = raw.rerankers;
    if (!Array.isArray(r) || r.some((x) => typeof x !== "string")) {
      throw bad("rerankers", "a list of reranked config names");
    }
    const configs = Array.isArray(raw.configs) ? raw.configs : [];
    for (const name of r as string[]) {
      let spec;
      try {
        spec = parseRerankConfig(name);
      } catch (e) {
        throw new UserError(`${where}: field "rerankers": ${(e as Error).message}`);
      }
      const missing = spec.bases.find((b) => !configs.includes(b));
      if (missing !== undefined) {
        throw new UserError(
          `${where}: field "rerankers": "${name}" reranks ${missing}, which is not in "configs"`,
        );
      }
    }
  }
  if (
    raw.invocations !== undefined &&
    (!Array.isArray(raw.invocations) || raw.invocations.some((x) => typeof x !== "string"))
  ) {
    throw bad("invocations", "a list of paths to invocation files");
  }
  const known = new Set([
    "name",
    "description",
    "sources",
    "mutation_seed",
    "mutation_extensions",
    "runtime",
    "timeout_ms",
    "max_distractors",
    "configs",
    "ks",
    "bootstrap",
    "seed",
    "site",
    "release",
    "rerankers",
    "invocations",
  ]);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) throw new UserError(`${where}: unknown field "${key}"`);
  }
  return {
    name: str("name"),
    description: str("description"),
    sources: strings("sources"),
    mutation_seed: int("mutation_seed", 0),
    mutation_extensions: extensions,
    runtime,
    timeout_ms: int("timeout_ms", 1),
    max_distractors: int("max_distractors", 1),
    configs: strings("configs"),
    ks: ks as number[],
    bootstrap: int("bootstrap", 1),
    seed: int("seed", 0),
    site: raw.site,
    ...(raw.release === undefined ? {} : { release: raw.release as string }),
    ...(raw.rerankers === undefined ? {} : { rerankers: raw.rerankers as string[] }),
    ...(raw.invocations === undefined ? {} : { invocations: raw.invocations as string[] }),
  };
}
