import { join } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { canonicalDigest } from "../io/hash.ts";
import { cacheDir } from "../io/paths.ts";
import { jsonlLines } from "../io/jsonl_lines.ts";
import { compareIds } from "./task.ts";
import { UserError } from "../io/user_error.ts";

/**
 * An external task set as data/sources.json pins it: where it comes from and
 * what its content must be. Verification is by content, not bytes: the file
 * must hold `rows` records whose ids are exactly `<prefix><first..last>`,
 * each with `fields` of the stated types, and the digest of the parsed
 * records must equal `digest`.
 */
export interface SourceSpec {
  /** Human name, with the paper that introduced it. */
  title: string;
  /** The official download address. */
  url: string;
  /** Environment variable that overrides `url` (tests serve a file on loopback). */
  url_env: string;
  /** File name in the cache and in a mirror folder. */
  file: string;
  /** The file is gzip-compressed JSONL. */
  gzip: boolean;
  /** Number of records. */
  rows: number;
  /** Field holding each record's id, and the id range: `<prefix><n>` for n in first..last. */
  id_field: string;
  id_prefix: string;
  id_first: number;
  id_last: number;
  /** Required fields and their JSON types: "string", "number", "string[]". */
  fields: Record<string, "string" | "number" | "string[]">;
  /** `sha256:<hex>` of the canonical JSON of the records in id order. */
  digest: string;
  license: string;
}

/**
 * A problem with a whole source file (missing, corrupt, not the pinned
 * content). A user error: wherever it surfaces (execret tasks, reproduce, a
 * data loader), the CLI prints its one line, not a stack trace.
 */
export class SourceError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "SourceError";
  }
}

/** Path of the committed source manifest. */
export const MANIFEST_URL = new URL("../../data/sources.json", import.meta.url);

/** The source manifest (data/sources.json): source name → spec. */
export async function loadManifest(
  url: URL | string = MANIFEST_URL,
): Promise<Record<string, SourceSpec>> {
  const json = JSON.parse(await Deno.readTextFile(url)) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(json).filter(([key]) => !key.startsWith("$")),
  ) as Record<string, SourceSpec>;
}

/** One verified record of a source file, with the line it came from. */
export interface SourceRecord {
  line: number;
  value: Record<string, unknown>;
}

/** A verified source file's records, in id order. */
export interface SourceFile {
  /** Where it was read from (path or URL). */
  origin: string;
  /** How it was obtained. */
  via: "mirror" | "cache" | "download";
  records: SourceRecord[];
}

/**
 * The canonical digest of a source's records: sha256 of the canonical JSON
 * (object keys sorted recursively, no whitespace) of the array of parsed
 * records sorted by id. Line endings, key order and spacing in the file do not
 * change it; any change to a value does.
 */
export function recordsDigest(records: readonly Record<string, unknown>[]): string {
  return `sha256:${canonicalDigest(records)}`;
}

/**
 * Parse and verify a source file's bytes against its spec; throw a one-line
 * {@link SourceError} naming `label` at the first problem.
 */
export async function verifySourceBytes(
  bytes: Uint8Array,
  spec: SourceSpec,
  label: string,
): Promise<SourceRecord[]> {
  let text = bytes;
  if (spec.gzip) {
    try {
      text = await gunzip(bytes);
    } catch (e) {
      throw new SourceError(`${label}: not a valid gzip file (${(e as Error).message})`);
    }
  }
  const lines = jsonlLines(text);
  const malformed = lines.filter((l) => l.error !== undefined);
  if (lines.length !== spec.rows) {
    const note = malformed.length > 0 ? ` (${malformed.length} malformed)` : "";
    throw new SourceError(`${label}: expected ${spec.rows} rows, found ${lines.length}${note}`);
  }
  const records: SourceRecord[] = [];
  for (const entry of lines) {
    if (entry.error !== undefined) throw new SourceError(`${label}:${entry.line}: ${entry.error}`);
    const value = entry.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new SourceError(`${label}:${entry.line}: not a JSON object`);
    }
    const record = value as Record<string, unknown>;
    for (const [field, type] of Object.entries(spec.fields)) {
      if (!hasType(record[field], type)) {
        throw new SourceError(`${label}:${entry.line}: field ${field} missing or not ${type}`);
      }
    }
    records.push({ line: entry.line, value: record });
  }
  const expected = new Set<string>();
  for (let n = spec.id_first; n <= spec.id_last; n++) expected.add(`${spec.id_prefix}${n}`);
  const seen = new Map<string, number>();
  for (const { line, value } of records) {
    const id = String(value[spec.id_field]);
    if (!expected.has(id)) throw new SourceError(`${label}:${line}: unexpected id ${id}`);
    if (seen.has(id)) {
      throw new SourceError(`${label}:${line}: duplicate id ${id} (first at line ${seen.get(id)})`);
    }
    seen.set(id, line);
  }
  records.sort((a, b) =>
    compareIds(String(a.value[spec.id_field]), String(b.value[spec.id_field]))
  );
  const digest = recordsDigest(records.map((r) => r.value));
  if (digest !== spec.digest) {
    throw new SourceError(
      `${label}: content digest ${digest} does not match the pinned ${spec.digest} ` +
        `(data/sources.json)`,
    );
  }
  return records;
}

function hasType(value: unknown, type: string): boolean {
  if (type === "string[]") return Array.isArray(value) && value.every((v) => typeof v === "string");
  if (type === "number") return typeof value === "number";
  return typeof value === "string";
}

/** Gunzip bytes with the web-standard DecompressionStream. */
export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The kit's verified download cache of task sets, `sources/` in the cache
 * folder (`EXECRET_CACHE`, else `<EXECRET_OUT or out>/cache`), as the
 * environment names it now.
 */
export function sourceCacheDir(): string {
  return join(cacheDir(), "sources");
}

/** Options for {@link obtainSource}. */
export interface ObtainOptions {
  /** Folder to read `<spec.file>` from instead of downloading (EXECRET_MIRROR). */
  mirror?: string;
  /** Download cache folder (default {@link sourceCacheDir}). */
  cache?: string;
  /** Download address (default: `$<spec.url_env>`, else `spec.url`). */
  url?: string;
  /** Print nothing on stderr. */
  quiet?: boolean;
  /** Give up on a download after this many milliseconds (default 300000). */
  timeoutMs?: number;
}

/**
 * Get a source file's verified records: from the mirror folder when one is
 * given; else from the download cache when the cached copy still verifies;
 * else by downloading it. A download is verified in memory before it is
 * written (atomically) to the cache, so a failed, truncated or wrong download
 * never leaves a cache file behind. Any failure is a one-line
 * {@link SourceError} naming the file.
 */
export async function obtainSource(
  spec: SourceSpec,
  options: ObtainOptions = {},
): Promise<SourceFile> {
  const log = (message: string) => {
    if (!options.quiet) console.error(message);
  };
  if (options.mirror) {
    const path = join(options.mirror, spec.file);
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (e) {
      const why = e instanceof Deno.errors.NotFound ? "not found" : (e as Error).message;
      throw new SourceError(`${path}: ${why} (mirror folder from EXECRET_MIRROR or --mirror)`);
    }
    return { origin: path, via: "mirror", records: await verifySourceBytes(bytes, spec, path) };
  }

  const cachePath = join(options.cache ?? sourceCacheDir(), spec.file);
  const cached = await readIfExists(cachePath);
  if (cached) {
    try {
      return {
        origin: cachePath,
        via: "cache",
        records: await verifySourceBytes(cached, spec, cachePath),
      };
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      log(`${e.message}; downloading it again`);
    }
  }

  const url = options.url ?? Deno.env.get(spec.url_env) ?? spec.url;
  log(`downloading ${spec.file} from ${url}`);
  let bytes: Uint8Array;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 300_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (e) {
    throw new SourceError(
      `${spec.file}: download from ${url} failed (${oneLine(e)}); ` +
        `set EXECRET_MIRROR to a folder holding ${spec.file} to work offline`,
    );
  }
  const records = await verifySourceBytes(bytes, spec, `${spec.file} (from ${url})`);
  await atomicWrite(cachePath, bytes);
  return { origin: url, via: "download", records };
}

async function readIfExists(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

function oneLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}
