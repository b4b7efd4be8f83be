import { UserError } from "../io/user_error.ts";
import { fileURLToPath } from "node:url";
import type { Invocation } from "./invocation.ts";
import type { ProviderEntry } from "./provider_entry.ts";
import { PROVIDER_ENTRIES } from "./provider_registry.ts";
import { entryFields, readNamedTable } from "../io/named_table.ts";

/** Path of the committed invocation table. */
export const DEFAULT_INVOCATIONS_PATH = fileURLToPath(
  new URL("../../data/invocations.json", import.meta.url),
);

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
  "retry_budget_ms",
  "k1",
  "b",
  "doc",
  "notes",
]);

/**
 * Check one raw table entry and return it typed, or throw a one-line error
 * naming the file and the entry. Provider names and what each provider
 * requires (dims, key_env, base_url) come from `entries` (default: the
 * built-in registry).
 */
export function validateInvocation(
  raw: unknown,
  where: string,
  entries: readonly ProviderEntry[] = PROVIDER_ENTRIES,
): Invocation {
  const { e, fail, str } = entryFields(raw, where, KNOWN_KEYS);
  const int = (k: string) => {
    if (e[k] === undefined) return;
    if (!Number.isInteger(e[k]) || (e[k] as number) <= 0) fail(`"${k}" must be a positive integer`);
  };
  const name = str("name", true)!;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) fail(`name "${name}" must match [a-z0-9][a-z0-9._-]*`);
  const provider = str("provider", true)!;
  const entry = entries.find((p) => p.name === provider);
  if (!entry) {
    fail(`provider "${provider}" is not one of ${entries.map((p) => p.name).join(", ")}`);
  }
  str("model", true);
  str("doc", true);
  for (const k of ["key_env", "base_url", "base_url_env", "dtype", "notes"]) str(k);
  if (e.similarity !== "cosine" && e.similarity !== "dot") {
    fail(`"similarity" must be cosine or dot`);
  }
  if (typeof e.normalize !== "boolean") fail(`"normalize" must be true or false`);
  for (const k of ["dims", "batch_size", "concurrency", "max_chars", "timeout_ms"]) int(k);
  for (const k of ["max_retries", "backoff_ms", "retry_budget_ms"]) {
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
  if (entry!.kind === "dense" && e.dims === undefined) fail(`dense provider needs "dims"`);
  if (entry!.hosted) {
    if (e.key_env === undefined) fail(`hosted provider needs "key_env"`);
    if (entry!.needsBaseUrl && e.base_url === undefined && e.base_url_env === undefined) {
      fail(`${provider} provider needs "base_url" or "base_url_env"`);
    }
  }
  return e as unknown as Invocation;
}

function isPlainObject(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

const loaded = new Map<string, Promise<Invocation[]>>();
/** Which file each entry of a loaded table came from, by table and name. */
const origins = new WeakMap<Invocation, string>();

/**
 * The user's own invocation files, in the schema of data/invocations.json:
 * `EXECRET_INVOCATIONS`, a colon-separated list of paths (the CLI's
 * `--invocations FILE` adds to it, so child processes see them too). Their
 * entries join the built-in table wherever the default table is read.
 */
export function userInvocationFiles(): string[] {
  return (Deno.env.get("EXECRET_INVOCATIONS") ?? "").split(":").filter((p) => p !== "");
}

/**
 * Load and validate the invocation table (default `data/invocations.json`,
 * plus every {@link userInvocationFiles} entry). Errors are one line naming
 * the file and the entry (index and name); a user entry whose name another
 * file already has is an error naming both files. `entries` is the provider
 * registry to check entries against (default the built-in one; a table read
 * with another registry is not cached).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const names = (await loadInvocations()).map((i) => i.name); // ["bm25", "tfidf", "use", ...]
 * strictEqual(names.includes("bm25"), true);
 * ```
 */
export function loadInvocations(
  path: string = DEFAULT_INVOCATIONS_PATH,
  entries?: readonly ProviderEntry[],
): Promise<Invocation[]> {
  const files = path === DEFAULT_INVOCATIONS_PATH ? [path, ...userInvocationFiles()] : [path];
  if (entries && entries !== PROVIDER_ENTRIES) return readInvocations(files, entries);
  const key = files.join("\n");
  let p = loaded.get(key);
  if (!p) {
    p = readInvocations(files);
    loaded.set(key, p);
    p.catch(() => loaded.delete(key));
  }
  return p;
}

/** The file an entry of a loaded table was read from. */
export function invocationOrigin(inv: Invocation): string | undefined {
  return origins.get(inv);
}

async function readInvocations(
  files: readonly string[],
  entries: readonly ProviderEntry[] = PROVIDER_ENTRIES,
): Promise<Invocation[]> {
  const table: Invocation[] = [];
  const from = new Map<string, string>();
  for (const file of files) {
    const rows = await readNamedTable(
      file,
      "invocations",
      "invocation table",
      (raw, where) => validateInvocation(raw, where, entries),
    ).catch((e) => {
      throw new UserError((e as Error).message.split("\n")[0]);
    });
    for (const inv of rows) {
      const first = from.get(inv.name);
      if (first !== undefined) {
        throw new UserError(
          `${file}: config "${inv.name}" is also in ${first}; give it another name`,
        );
      }
      from.set(inv.name, file);
      origins.set(inv, file);
      table.push(inv);
    }
  }
  return table;
}

/**
 * The table entry named `name`, or a one-line error listing the known names.
 * `entries`: the provider registry, as for {@link loadInvocations}.
 */
export async function invocationFor(
  name: string,
  path?: string,
  entries?: readonly ProviderEntry[],
): Promise<Invocation> {
  const table = await loadInvocations(path, entries);
  const inv = table.find((i) => i.name === name);
  if (!inv) {
    const where = path ?? [DEFAULT_INVOCATIONS_PATH, ...userInvocationFiles()].join(", ");
    throw new UserError(
      `unknown config "${name}"; known: ${table.map((i) => i.name).join(", ")} (${
        path === undefined && userInvocationFiles().length === 0 ? "data/invocations.json" : where
      })`,
    );
  }
  return inv;
}
