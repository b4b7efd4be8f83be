import { basename, join } from "node:path";
import { type EmbeddingRow, writeEmbeddingFile } from "./embedding_file.ts";
import type { Invocation } from "./invocation.ts";
import type { Bundle } from "../release/bundle_types.ts";
import type { Similarity } from "../common/similarity.ts";
import { sha256Hex } from "../io/hash.ts";
import { UserError } from "../io/user_error.ts";
import { embeddingsDir } from "../io/paths.ts";
import { progress } from "../io/progress.ts";
import { type ReleasedSystem, releasedSystems } from "../release/bundle_source.ts";
import { readBundle } from "../release/read_bundle.ts";
import { npzWrittenAt, readNpz } from "../release/npz.ts";
import {
  checkEmbeddingSummary,
  mapReleaseMatrices,
  type ReleaseMatrices,
} from "../release/npz_matrices.ts";

/** What {@link writeReleaseEmbedding} needs. */
export interface ReleaseEmbeddingOptions {
  /** `embeddings/<model>.npz` of the release. */
  npzPath: string;
  /** The kit's embedding file to write (`out/embeddings/<config>.arrow`). */
  outPath: string;
  /** Config name (file name, tables): `[a-z0-9][a-z0-9._-]*`. */
  config: string;
  /** The released model id (`results/<model>.json`'s `model`). */
  model: string;
  /** From `results/invocation_table.json`: cosine for 22 systems, dot for one. */
  similarity: Similarity;
  /** Released query ids in `queries.jsonl` order. */
  queryIds: readonly string[];
  /** Released corpus ids in `corpus.jsonl` order. */
  corpusIds: readonly string[];
  /**
   * The id each query row gets in the embedding file, parallel to
   * `queryIds` (default: `queryIds`). The kit's queries table names a
   * released query `release/<query_id>` (its task id), and the score stage
   * looks vectors up by that id, so the release profile passes those here.
   */
  queryRowIds?: readonly string[];
  /** This file's entry of `tests/embedding_summary.json`, checked when given. */
  summary?: unknown;
}

/** What {@link writeReleaseEmbedding} wrote. */
export interface ReleaseEmbeddingResult {
  outPath: string;
  /** SHA-256 of the `.npz` bytes. */
  sha256: string;
  dims: number;
  queries: number;
  documents: number;
  arrayNames: ReleaseMatrices["arrayNames"];
  invocation: Invocation;
}

/**
 * Turn one released `.npz` into the kit's embedding file: read the archive,
 * map its arrays to the query and corpus matrices (by shape; ids reorder
 * rows), check the `embedding_summary` entry when given, and write rows
 * through `writeEmbeddingFile` — queries (role `query`, id from
 * `queryRowIds`) then the corpus (role `document`, id = corpus_id), each in
 * benchmark order. Provenance goes in the file's metadata: `source_file`,
 * `source_sha256`, `source_arrays`, and an invocation with provider
 * `release`. `created_at` is the archive's own write time, so reruns give
 * the same bytes. Every error is one line naming the `.npz`.
 */
export async function writeReleaseEmbedding(
  options: ReleaseEmbeddingOptions,
): Promise<ReleaseEmbeddingResult> {
  const { npzPath, queryIds, corpusIds } = options;
  if (options.similarity !== "cosine" && options.similarity !== "dot") {
    throw new Error(`${npzPath}: similarity must be cosine or dot, got "${options.similarity}"`);
  }
  const rowIds = options.queryRowIds ?? queryIds;
  if (rowIds.length !== queryIds.length) {
    throw new Error(
      `${npzPath}: ${rowIds.length} query row ids for ${queryIds.length} query ids`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(npzPath);
  } catch (e) {
    throw new Error(`${npzPath}: cannot read (${(e as Error).message})`);
  }
  const sha256 = sha256Hex(bytes);
  const arrays = await readNpz(bytes, npzPath);
  const m = mapReleaseMatrices(arrays, {
    nQueries: queryIds.length,
    nCorpus: corpusIds.length,
    queryIds,
    corpusIds,
    file: npzPath,
  });
  if (options.summary !== undefined) {
    checkEmbeddingSummary(options.summary, arrays, npzPath, {
      queries: m.arrayNames.queries,
      corpus: m.arrayNames.corpus,
    });
  }
  const source = basename(npzPath);
  const invocation: Invocation = {
    name: options.config,
    provider: "release",
    model: options.model,
    similarity: options.similarity,
    dims: m.dims,
    // The release's vectors are stored as saved; cosine normalises at scoring time.
    normalize: false,
    query: {},
    document: {},
    doc: `embeddings/${source}`,
    notes: `imported from the paper's release: ${source}, sha256 ${sha256}`,
  };
  const rows: EmbeddingRow[] = [];
  for (let i = 0; i < queryIds.length; i++) {
    rows.push({
      id: rowIds[i],
      role: "query",
      vector: m.queries.subarray(i * m.dims, (i + 1) * m.dims),
    });
  }
  for (let i = 0; i < corpusIds.length; i++) {
    rows.push({
      id: corpusIds[i],
      role: "document",
      vector: m.corpus.subarray(i * m.dims, (i + 1) * m.dims),
    });
  }
  await writeEmbeddingFile(options.outPath, invocation, rows, npzWrittenAt(bytes, npzPath), {
    source_file: source,
    source_sha256: sha256,
    source_arrays: JSON.stringify(m.arrayNames),
  });
  return {
    outPath: options.outPath,
    sha256,
    dims: m.dims,
    queries: queryIds.length,
    documents: corpusIds.length,
    arrayNames: m.arrayNames,
    invocation,
  };
}

/**
 * The entry of `tests/embedding_summary.json` for one `.npz`: keyed by the
 * model id, the file name, its stem, or `embeddings/<file>` (the release does
 * not document which), at the top level or under `models`/`embeddings`.
 * Undefined when none matches.
 */
export function summaryEntryFor(summary: unknown, model: string, npzPath: string): unknown {
  if (!summary || typeof summary !== "object") return undefined;
  const file = basename(npzPath);
  const keys = [model, file, file.replace(/\.npz$/, ""), `embeddings/${file}`];
  const root = summary as Record<string, unknown>;
  for (const scope of [root, root.models, root.embeddings]) {
    if (!scope || typeof scope !== "object" || Array.isArray(scope)) continue;
    for (const key of keys) {
      const v = (scope as Record<string, unknown>)[key];
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** The embedding file of a released system. */
export function releasedEmbeddingPath(config: string): string {
  return join(embeddingsDir(), `${config}.arrow`);
}

/**
 * Turn each released `.npz` of the bundle into the kit's embedding file,
 * queries under the kit's ids (`release/<query_id>`), checked against
 * `tests/embedding_summary.json` when the release ships it.
 */
export async function writeReleasedEmbeddings(
  bundleDir: string,
  options: { quiet?: boolean; only?: readonly string[] } = {},
): Promise<ReleasedSystem[]> {
  const bundle = await readBundle(bundleDir);
  const systems = releasedSystems(bundle).filter((s) =>
    !options.only || options.only.includes(s.config)
  );
  const summary = await readSummary(bundle);
  const queryIds = bundle.queries.map((q) => q.query_id);
  const corpusIds = [...bundle.corpus.keys()];
  const bar = progress("embed (release .npz)", systems.length, { quiet: options.quiet });
  for (const s of systems) {
    await writeReleaseEmbedding({
      npzPath: s.npz,
      outPath: releasedEmbeddingPath(s.config),
      config: s.config,
      model: s.model,
      similarity: s.similarity,
      queryIds,
      corpusIds,
      queryRowIds: queryIds.map((id) => `release/${id}`),
      summary: summary === undefined ? undefined : summaryEntryFor(summary, s.model, s.npz),
    }).catch((e) => {
      // Every problem of a released .npz is a one-line message naming the file.
      throw new UserError((e as Error).message);
    });
    bar.tick();
  }
  bar.done(`${systems.length} systems`);
  return systems;
}

async function readSummary(bundle: Bundle): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(join(bundle.dir, "tests/embedding_summary.json")));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw new Error(`${join(bundle.dir, "tests/embedding_summary.json")}: ${(e as Error).message}`);
  }
}
