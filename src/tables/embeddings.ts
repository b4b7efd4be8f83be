import { type RowOf, tableSpec } from "../io/arrow_table.ts";

/**
 * An embedding file (`out/embeddings/<config>.arrow`): one row per embedded
 * text, its vector a fixed-size list of `dims` float32 values. The file's
 * schema metadata (config, provider, model, dims, ...) is described in
 * src/embed/embedding_file.ts, which writes it.
 */
export function embeddingsSpec(dims: number) {
  return tableSpec({
    id: "utf8", // a query_id or a corpus_id
    role: "utf8", // query | document
    vector: { fixedFloat32: dims },
  });
}

/** One row of an embedding file (see {@link embeddingsSpec}). */
export type EmbeddingColumns = RowOf<ReturnType<typeof embeddingsSpec>>;
