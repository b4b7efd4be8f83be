// Test helper: the tiny random BERT committed under test/fixtures/embed/ and
// the invocation the embed stage's tests run it with.
import { fileURLToPath } from "node:url";

/** Folder to point EXECRET_MODELS at, so `hf` finds `tiny-bert` offline. */
export const TINY_MODELS = fileURLToPath(new URL("../fixtures/embed/", import.meta.url));

/** An `hf` invocation of the tiny model (32 dims, mean pooling, a query prefix). */
export const TINY_INVOCATION = {
  name: "tiny",
  provider: "hf",
  model: "tiny-bert",
  similarity: "cosine",
  dims: 32,
  normalize: true,
  pooling: "mean",
  batch_size: 2,
  query: { prefix: "find: " },
  document: {},
  doc: "https://example.org/tiny",
};
