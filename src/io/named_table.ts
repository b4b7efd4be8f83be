/**
 * Read a table of named entries kept as data (`{"<key>": [{name, ...}, ...]}`,
 * e.g. data/invocations.json, data/rerankers.json): each entry validated by
 * `validate` with a locator naming the file, its index and name; a duplicate
 * name, unreadable file or malformed JSON is a one-line error naming the file.
 *
 * @example
 * ```ts
 * const rows = await readNamedTable("data/rerankers.json", "rerankers", "reranker table", (e) => e);
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
