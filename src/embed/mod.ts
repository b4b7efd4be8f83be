/**
 * Embedding providers, the invocation table and the Arrow embedding store.
 *
 * - `loadInvocations`, `invocationFor`: the table in data/invocations.json.
 * - `providerFor`, `isSparse`, `missingRequirements`: a config's provider and
 *   whether it can run here.
 * - `runEmbedStage`: embed queries and pool into out/embeddings/<config>.arrow.
 * - `readEmbeddingFile`, `summarizeEmbeddingFile`: read and check those files.
 *
 * @module
 */
export type { DenseProvider, Provider, Role, Similarity, SparseProvider } from "./provider.ts";
export {
  type Invocation,
  invocationFor,
  loadInvocations,
  type RoleSettings,
  textToSend,
} from "./invocations.ts";
export { isSparse, missingRequirements, providerFor, type ProviderOptions } from "./registry.ts";
export { type EmbedConfigResult, type EmbedStageResult, runEmbedStage } from "./stage.ts";
export {
  type EmbeddingFile,
  type EmbeddingSummary,
  readEmbeddingFile,
  summarizeEmbeddingFile,
} from "./embedding_file.ts";
