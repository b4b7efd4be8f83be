import * as arrow from "apache-arrow";
import { readTable, tableFromRows, toIpcStream } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { canonicalJson } from "../io/hash.ts";
import type { Invocation } from "./invocation.ts";
import type { Role } from "./provider.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { type EmbeddingColumns, embeddingsSpec } from "../tables/embeddings.ts";
import { PROVIDER_ENTRIES } from "./provider_registry.ts";

/** One row of an embedding file, its role narrowed to the two it may hold. */
export type EmbeddingRow = Omit<EmbeddingColumns, "role"> & { role: Role };

/**
 * Versions recorded in an embedding file: the provider's libraries (its
 * registry entry's `libraries`) and apache-arrow, exact from deno.json's pins.
 */
export function libraryVersions(provider: string): Record<string, string> {
  const imports = denoJson.imports as Record<string, string>;
  const out: Record<string, string> = {};
  const libraries = PROVIDER_ENTRIES.find((e) => e.name === provider)?.libraries ?? [];
  for (const name of [...libraries, "apache-arrow"]) {
    const spec = imports[name] ?? "";
    out[name] = spec.slice(spec.lastIndexOf("@") + 1);
  }
  return out;
}

/**
 * Write `out/embeddings/<config>.arrow` (an Arrow IPC stream; columns in
 * src/tables/embeddings.ts). The contract between the embed stage (writer)
 * and the score stage (reader): columns `id` (a query_id or corpus_id),
 * `role` (query | document), `vector` (fixed-size list of `dims` float32);
 * string metadata `config`, `provider`, `model`, `similarity` (cosine | dot),
 * `dims`, `normalized` ("true" | "false"), `invocation` (JSON of the table
 * entry), `versions` (JSON), `created_at` (ISO time of the earliest vector
 * fetch in the cache, so reruns give identical bytes), plus any `extra` keys
 * (provenance such as a source file's digest, or `truncated_inputs` when the
 * kit cut texts to a provider's per-input limit; they cannot replace the
 * contract's keys). Rows: queries first, then pool snippets, each in table
 * order; sparse configs (bm25, tfidf) have no file. Atomic; the same rows and
 * metadata give the same bytes.
 */
export async function writeEmbeddingFile(
  path: string,
  inv: Invocation,
  rows: readonly EmbeddingRow[],
  createdAt: string,
  extra: Record<string, string> = {},
): Promise<void> {
  const dims = rows[0]?.vector.length ?? inv.dims ?? 0;
  const metadata: Record<string, string> = {
    ...extra,
    config: inv.name,
    provider: inv.provider,
    model: inv.model,
    similarity: inv.similarity,
    dims: String(dims),
    normalized: String(inv.normalize),
    invocation: canonicalJson(inv),
    versions: canonicalJson(libraryVersions(inv.provider)),
    created_at: createdAt,
  };
  const table = tableFromRows(rows, embeddingsSpec(dims), metadata);
  await atomicWrite(path, toIpcStream(table));
}

/** The paper's `embedding_summary` of one file: shape and vector health. */
export interface EmbeddingSummary {
  path: string;
  config: string;
  rows: number;
  queries: number;
  documents: number;
  dims: number;
  /** Vectors holding any NaN or infinite value. */
  nonFinite: number;
  /** Vectors whose L2 norm is 0. */
  zeroNorm: number;
  normMin: number;
  normMax: number;
  normMean: number;
  duplicateIds: number;
  /** Contract violations (missing metadata, dims mismatch, bad role); empty when sound. */
  problems: string[];
}

const REQUIRED_METADATA = [
  "config",
  "provider",
  "model",
  "similarity",
  "dims",
  "normalized",
  "invocation",
  "versions",
];

/**
 * Summarise an embedding file: rows per role, dims, vectors with non-finite
 * values or zero norm, norm range, duplicate ids, and contract problems.
 */
export async function summarizeEmbeddingFile(path: string): Promise<EmbeddingSummary> {
  const table = await readTable(path);
  const meta = table.schema.metadata;
  const problems: string[] = [];
  for (const key of REQUIRED_METADATA) {
    if (!meta.has(key)) problems.push(`metadata "${key}" missing`);
  }
  const vectorField = table.schema.fields.find((f) => f.name === "vector");
  let dims = 0;
  if (!vectorField || !(vectorField.type instanceof arrow.FixedSizeList)) {
    problems.push(`column "vector" is not a fixed-size list`);
  } else {
    dims = vectorField.type.listSize;
    if (meta.get("dims") !== String(dims)) {
      problems.push(`metadata dims ${meta.get("dims")} but vectors have ${dims}`);
    }
  }
  const ids = table.getChild("id");
  const roles = table.getChild("role");
  if (!ids || !roles) problems.push(`columns "id" and "role" required`);
  let queries = 0, documents = 0, nonFinite = 0, zeroNorm = 0, normSum = 0;
  let normMin = Infinity, normMax = -Infinity;
  const seen = new Set<string>();
  let duplicateIds = 0;
  const values = vectorValues(table);
  for (let i = 0; i < table.numRows; i++) {
    const role = roles?.get(i);
    if (role === "query") queries++;
    else if (role === "document") documents++;
    else if (problems.length < 20) {
      problems.push(`row ${i}: role "${role}" is not query or document`);
    }
    const key = `${role}\u0000${ids?.get(i)}`;
    if (seen.has(key)) duplicateIds++;
    seen.add(key);
    let sum = 0;
    let finite = true;
    for (let j = 0; j < dims; j++) {
      const x = values[i * dims + j];
      if (!Number.isFinite(x)) finite = false;
      else sum += x * x;
    }
    if (!finite) {
      nonFinite++;
      continue;
    }
    const norm = Math.sqrt(sum);
    if (norm === 0) zeroNorm++;
    normMin = Math.min(normMin, norm);
    normMax = Math.max(normMax, norm);
    normSum += norm;
  }
  const counted = table.numRows - nonFinite;
  if (duplicateIds > 0) problems.push(`${duplicateIds} duplicate (role, id) rows`);
  if (table.numRows === 0) problems.push("no rows");
  return {
    path,
    config: meta.get("config") ?? "",
    rows: table.numRows,
    queries,
    documents,
    dims,
    nonFinite,
    zeroNorm,
    normMin: counted > 0 ? normMin : 0,
    normMax: counted > 0 ? normMax : 0,
    normMean: counted > 0 ? normSum / counted : 0,
    duplicateIds,
    problems,
  };
}

/** An embedding file in memory: metadata, ids and roles, and all vectors row-major. */
export interface EmbeddingFile {
  metadata: Record<string, string>;
  ids: string[];
  roles: Role[];
  dims: number;
  /** `values[i * dims + j]` is component j of row i's vector. */
  values: Float32Array;
}

/**
 * Read `out/embeddings/<config>.arrow` for scoring: ids, roles and one flat
 * Float32Array of vectors (no per-row copies).
 */
export async function readEmbeddingFile(path: string): Promise<EmbeddingFile> {
  const table = await readTable(path);
  const field = table.schema.fields.find((f) => f.name === "vector");
  if (!field || !(field.type instanceof arrow.FixedSizeList)) {
    throw new Error(`${path}: column "vector" is not a fixed-size list of float32`);
  }
  const ids = table.getChild("id");
  const roles = table.getChild("role");
  if (!ids || !roles) throw new Error(`${path}: columns "id" and "role" required`);
  return {
    metadata: Object.fromEntries(table.schema.metadata),
    ids: Array.from({ length: table.numRows }, (_, i) => String(ids.get(i))),
    roles: Array.from({ length: table.numRows }, (_, i) => roles.get(i) as Role),
    dims: field.type.listSize,
    values: vectorValues(table),
  };
}

/** All vector values of a table, row-major, as one Float32Array. */
export function vectorValues(table: arrow.Table): Float32Array {
  const col = table.getChild("vector");
  if (!col) return new Float32Array(0);
  const parts = col.data.map((d) => {
    const child = d.children[0];
    const size = (d.type as arrow.FixedSizeList).listSize;
    const start = child.offset + d.offset * size;
    return (child.values as Float32Array).subarray(start, start + d.length * size);
  });
  if (parts.length === 1) return parts[0];
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
