import * as arrow from "apache-arrow";
import { readTable } from "../io/arrow_table.ts";
import type { Similarity } from "../common/similarity.ts";
import type { VectorBlock } from "./score_matrix.ts";

/** The vectors of one embedding file, ordered like the benchmark's queries and pool. */
export interface EmbeddingVectors {
  queries: VectorBlock;
  docs: VectorBlock;
  similarity: Similarity;
  metadata: Record<string, string>;
}

/**
 * Read `out/embeddings/<config>.arrow` (contract in src/embed/provider.ts) and
 * return its vectors in the order of `queryIds` and `docIds`. Any id missing,
 * repeated, unknown or in the wrong role, a dims mismatch or a non-finite
 * value is a one-line error naming the file and the id.
 */
export async function readEmbeddingVectors(
  path: string,
  queryIds: readonly string[],
  docIds: readonly string[],
): Promise<EmbeddingVectors> {
  const table = await readTable(path);
  const metadata = Object.fromEntries(table.schema.metadata);
  const similarity = metadata.similarity;
  if (similarity !== "cosine" && similarity !== "dot") {
    throw new Error(`${path}: metadata similarity must be cosine or dot, got "${similarity}"`);
  }
  const vectorField = table.schema.fields.find((f) => f.name === "vector");
  if (!vectorField || !(vectorField.type instanceof arrow.FixedSizeList)) {
    throw new Error(`${path}: no fixed-size list column "vector"`);
  }
  const dims = vectorField.type.listSize;
  if (metadata.dims !== undefined && Number(metadata.dims) !== dims) {
    throw new Error(`${path}: metadata says ${metadata.dims} dims, vectors have ${dims}`);
  }
  const slot = new Map<string, ["query" | "document", number]>();
  queryIds.forEach((id, i) => slot.set(id, ["query", i]));
  docIds.forEach((id, i) => {
    if (slot.has(id)) throw new Error(`${path}: id ${id} is both a query and a document id`);
    slot.set(id, ["document", i]);
  });
  const q = new Float32Array(queryIds.length * dims);
  const d = new Float32Array(docIds.length * dims);
  const filledQ = new Uint8Array(queryIds.length), filledD = new Uint8Array(docIds.length);
  let row = 0;
  for (const batch of table.batches) {
    const ids = batch.getChild("id")!, roles = batch.getChild("role")!;
    const vdata = batch.getChild("vector")!.data[0];
    const values = vdata.children[0].values as Float32Array;
    const base = vdata.children[0].offset + vdata.offset * dims;
    for (let i = 0; i < batch.numRows; i++, row++) {
      const id = ids.get(i) as string, role = roles.get(i) as string;
      const target = slot.get(id);
      if (!target) throw new Error(`${path}: id ${id} (row ${row}) is not in the benchmark`);
      if (target[0] !== role) {
        throw new Error(`${path}: id ${id} has role ${role}, expected ${target[0]}`);
      }
      const [dst, filled] = role === "query" ? [q, filledQ] : [d, filledD];
      if (filled[target[1]]) throw new Error(`${path}: id ${id} appears twice`);
      filled[target[1]] = 1;
      const v = values.subarray(base + i * dims, base + (i + 1) * dims);
      for (let k = 0; k < dims; k++) {
        if (!Number.isFinite(v[k])) {
          throw new Error(`${path}: vector of ${id} has a non-finite value`);
        }
      }
      dst.set(v, target[1] * dims);
    }
  }
  const missingQ = filledQ.indexOf(0), missingD = filledD.indexOf(0);
  if (missingQ >= 0) throw new Error(`${path}: no vector for query ${queryIds[missingQ]}`);
  if (missingD >= 0) throw new Error(`${path}: no vector for document ${docIds[missingD]}`);
  return {
    queries: { ids: [...queryIds], dims, data: q },
    docs: { ids: [...docIds], dims, data: d },
    similarity,
    metadata,
  };
}
