import { AutoModel, AutoTokenizer, env, type Tensor } from "@huggingface/transformers";
import { join } from "node:path";
import { cacheDir } from "../../io/paths.ts";
import { type Invocation, textToSend } from "../invocations.ts";
import type { DenseProvider } from "../provider.ts";
import { inBatches } from "../http_client.ts";
import { finishVectors } from "../vectors.ts";
import { inLengthOrder } from "../length_order.ts";

/**
 * A local ONNX model through transformers.js, loaded from
 * `<modelsDir>/<model>` with remote loading off (the kit never downloads
 * weights behind the user's back); with `remote` (EXECRET_HF_REMOTE=1) a
 * model missing locally comes from the Hugging Face Hub into the kit's cache. Pooling follows the invocation — `mean`
 * over the attention mask, `cls` (first token) or `last` (last real token,
 * whichever side the tokenizer pads) — and the role prefix is added before
 * tokenising. Texts beyond the model's maximum length are truncated by the
 * tokenizer.
 */
export async function hfProvider(
  inv: Invocation,
  modelsDir: string,
  remote = false,
): Promise<DenseProvider> {
  env.allowRemoteModels = remote;
  if (remote) env.cacheDir = join(cacheDir(), "hf-models");
  env.allowLocalModels = true;
  env.localModelPath = modelsDir.endsWith("/") ? modelsDir : modelsDir + "/";
  const tokenizer = await AutoTokenizer.from_pretrained(inv.model);
  const model = await AutoModel.from_pretrained(inv.model, {
    // deno-lint-ignore no-explicit-any
    dtype: (inv.dtype ?? "fp32") as any,
    device: "cpu",
  });
  const pooling = inv.pooling ?? "mean";
  return {
    kind: "dense",
    embed(texts, role) {
      const sent = texts.map((t) => textToSend(inv, t, role));
      return inLengthOrder(
        sent,
        (sorted) =>
          inBatches(sorted, inv.batch_size ?? 16, 1, async (batch, start) => {
            const inputs = tokenizer(batch, { padding: true, truncation: true });
            const outputs = await model(inputs);
            const hidden = (outputs.last_hidden_state ?? outputs.token_embeddings) as Tensor;
            const vectors = pool(hidden, inputs.attention_mask as Tensor, pooling);
            return finishVectors(inv, vectors, batch.length, `batch at ${role} ${start}`);
          }),
      );
    },
  };
}

/** Pool `[batch, tokens, dims]` hidden states to `[batch, dims]` using the attention mask. */
export function pool(
  hidden: Tensor,
  mask: Tensor,
  pooling: "mean" | "cls" | "last",
): Float32Array[] {
  const [b, t, h] = hidden.dims as number[];
  const data = hidden.data as Float32Array;
  const m = Array.from(mask.data as ArrayLike<number | bigint>, Number);
  const out: Float32Array[] = [];
  for (let i = 0; i < b; i++) {
    const v = new Float32Array(h);
    const row = (tok: number) => data.subarray((i * t + tok) * h, (i * t + tok + 1) * h);
    if (pooling === "cls") {
      v.set(row(0));
    } else if (pooling === "last") {
      let last = -1;
      for (let j = 0; j < t; j++) if (m[i * t + j] !== 0) last = j;
      if (last >= 0) v.set(row(last));
    } else {
      let n = 0;
      for (let j = 0; j < t; j++) {
        if (m[i * t + j] === 0) continue;
        const r = row(j);
        for (let k = 0; k < h; k++) v[k] += r[k];
        n++;
      }
      if (n > 0) { for (let k = 0; k < h; k++) v[k] /= n; }
    }
    out.push(v);
  }
  return out;
}
