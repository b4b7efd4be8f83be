/**
 * Read a table of named entries kept as data (`{"<key>": [{name, ...}, ...]}`,
 * e.g. data/invocations.json, data/rerankers.json): each entry validated by
 * `validate` with a locator naming the file, its index and name; a duplicate
 * name, unreadable file or malformed JSON is a one-line error naming the file.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * const rows = await readNamedTable(
 *   "data/rerankers.json",
 *   "rerankers",
 *   "reranker table",
 *   (e) => e as { name: string },
 * );
 * strictEqual(rows[0].name, "cohere-rerank-v3.5");
 * ```
 */
export async function readNamedTable<T extends { name: string }>(
  path: string,
  key: string,
  what: string,
  validate: (entry: unknown, where: string) => T,
): Promise<T[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new Error(`${path}: cannot read the ${what} (${(e as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`);
  }
  const entries = (raw as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(entries)) throw new Error(`${path}: expected {"${key}": [...]}`);
  const seen = new Set<string>();
  return entries.map((entry, i) => {
    const label = (entry as { name?: unknown })?.name;
    const where = `${path}: entry ${i}${typeof label === "string" ? ` (${label})` : ""}`;
    const row = validate(entry, where);
    if (seen.has(row.name)) throw new Error(`${where}: duplicate name "${row.name}"`);
    seen.add(row.name);
    return row;
  });
}

/** What {@link entryFields} gives an entry's validator. */
export interface EntryFields {
  /** The entry as an object. */
  e: Record<string, unknown>;
  /** Throw a one-line error starting with the entry's locator. */
  fail: (msg: string) => never;
  /** A string field: undefined when absent and optional; non-empty when present. */
  str: (key: string, required?: boolean) => string | undefined;
}

/**
 * The start every entry validator of a named table shares: the entry must be
 * an object whose fields are all known, and `fail`/`str` report against
 * `where`.
 */
export function entryFields(raw: unknown, where: string, known: ReadonlySet<string>): EntryFields {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) fail("entry is not an object");
  const e = raw as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!known.has(key)) fail(`unknown field "${key}"`);
  const str = (k: string, required = false) => {
    if (e[k] === undefined) return required ? fail(`missing "${k}"`) : undefined;
    if (typeof e[k] !== "string" || e[k] === "") fail(`"${k}" must be a non-empty string`);
    return e[k] as string;
  };
  return { e, fail, str };
}
