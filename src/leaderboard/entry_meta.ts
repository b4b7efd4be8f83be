/**
 * A leaderboard entry's metadata (`meta.json` beside its run file): who
 * made the run of which model, how the model was invoked, on which
 * benchmark's pool, and, optionally, the numbers the contributor claims.
 * Claims are checked against the kit's own scoring of the run, never used
 * in its place. Every string is plain text: one holding markup is refused
 * (and the site shows every field as text anyway).
 *
 * @module
 */
import { validateInvocation } from "../embed/invocations.ts";
import type { Invocation } from "../embed/invocation.ts";

/** The metadata of one entry, checked. */
export interface EntryMeta {
  model: string;
  revision: string;
  invocation: Invocation;
  submitted_by: string;
  /** YYYY-MM-DD. */
  date: string;
  kit_version: string;
  /** A benchmark the kit builds: a profile's name (`default`, `release`, ...). */
  benchmark: string;
  /** `sha256:<hex>` of the pool the run was made on (pool_digest.ts). */
  pool_digest: string;
  /** The run file's name, in the entry's folder. */
  run: string;
  /** Numbers the contributor states, by `<metric>@<k>`, as decimal strings. */
  claims: Record<string, string>;
}

/** A metadata problem: the field it is in and why. */
export class MetaError extends Error {
  constructor(readonly field: string, readonly reason: string) {
    super(`${field}: ${reason}`);
    this.name = "MetaError";
  }
}

const KNOWN = new Set([
  "model",
  "revision",
  "invocation",
  "submitted_by",
  "date",
  "kit_version",
  "benchmark",
  "pool_digest",
  "run",
  "claims",
]);

/** Markup, a script address or a control character: what no text field may hold. */
// deno-lint-ignore no-control-regex -- control characters are what it looks for
const UNSAFE = /[<>\u0000-\u001f\u007f]|javascript:/i;

/** Every string in `value`, with the dotted path of the field holding it. */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) yield* strings(v, path ? `${path}.${k}` : k);
  }
}

/**
 * Check `raw` (a parsed meta.json) and return it typed; a problem throws a
 * {@link MetaError} naming the field.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { checkEntryMeta } from "./entry_meta.ts";
 * const meta = {
 *   model: "okapi-bm25", revision: "1", submitted_by: "kit", date: "2026-12-07",
 *   kit_version: "git:abc", benchmark: "default", run: "run.trec.gz",
 *   pool_digest: "sha256:" + "0".repeat(64),
 *   invocation: { name: "bm25", provider: "bm25", model: "okapi-bm25", similarity: "dot",
 *     normalize: false, query: {}, document: {}, doc: "https://en.wikipedia.org/wiki/Okapi_BM25" },
 * };
 * strictEqual(checkEntryMeta(meta).benchmark, "default");
 * throws(() => checkEntryMeta({ ...meta, model: "<script>x</script>" }), /model: /);
 * throws(() => checkEntryMeta({ ...meta, run: "../other/run.trec" }), /run: /);
 * ```
 */
export function checkEntryMeta(raw: unknown): EntryMeta {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw new MetaError("meta.json", "must be a JSON object");
  }
  const e = raw as Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (!KNOWN.has(key)) {
      throw new MetaError(key, `unknown field (known: ${[...KNOWN].join(", ")})`);
    }
  }
  for (const [path, text] of strings(e, "")) {
    if (UNSAFE.test(text)) {
      throw new MetaError(path, "holds markup, a script address or a control character");
    }
  }
  const str = (key: string, pattern?: RegExp, what?: string): string => {
    const v = e[key];
    if (typeof v !== "string" || v.trim() === "") {
      throw new MetaError(key, "must be a non-empty string");
    }
    if (v.length > 200) throw new MetaError(key, "is longer than 200 characters");
    if (pattern && !pattern.test(v)) throw new MetaError(key, `must be ${what}`);
    return v;
  };
  const noDots = (key: string) => {
    const v = str(key);
    if (v.includes("..")) throw new MetaError(key, `may not hold ".."`);
    return v;
  };
  const model = noDots("model");
  const revision = noDots("revision");
  const submitted_by = str("submitted_by");
  const date = str("date", /^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");
  if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new MetaError("date", "is not a date");
  const kit_version = str("kit_version");
  const benchmark = str("benchmark", /^[a-z0-9][a-z0-9_-]*$/, "a profile name ([a-z0-9_-])");
  const pool_digest = str("pool_digest", /^sha256:[0-9a-f]{64}$/, "sha256:<64 hex digits>");
  const run = str("run", /^[A-Za-z0-9][A-Za-z0-9._-]*$/, "a file name in the entry's folder");
  if (run.includes("..")) throw new MetaError("run", `may not hold ".."`);
  let invocation: Invocation;
  try {
    invocation = validateInvocation(e.invocation, "invocation");
  } catch (err) {
    throw new MetaError("invocation", (err as Error).message.replace(/^invocation:?\s*/, ""));
  }
  const claims: Record<string, string> = {};
  if (e.claims !== undefined) {
    if (!e.claims || typeof e.claims !== "object" || Array.isArray(e.claims)) {
      throw new MetaError("claims", "must be an object of metric@k → decimal string");
    }
    for (const [key, value] of Object.entries(e.claims)) {
      if (!/^[a-z_]+@\d+$/.test(key)) {
        throw new MetaError(`claims.${key}`, "must be named <metric>@<k>");
      }
      if (typeof value !== "string" || !/^-?\d+(\.\d+)?$/.test(value)) {
        throw new MetaError(`claims.${key}`, `must be a decimal string such as "0.331"`);
      }
      claims[key] = value;
    }
  }
  return {
    model,
    revision,
    invocation,
    submitted_by,
    date,
    kit_version,
    benchmark,
    pool_digest,
    run,
    claims,
  };
}
