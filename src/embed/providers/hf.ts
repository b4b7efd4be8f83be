import type { Tensor } from "@huggingface/transformers";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { cacheDir } from "../../io/paths.ts";
import { type Invocation, textToSend } from "../invocation.ts";
import type { DenseProvider } from "../provider.ts";
import { inBatches } from "../http_client.ts";
import { finishVectors } from "../vectors.ts";
import { inLengthOrder } from "../length_order.ts";
import { defineProvider } from "../provider_entry.ts";

/**
 * A local ONNX model through transformers.js, loaded from
 * `<modelsDir>/<model>` with remote loading off (the kit never downloads
 * weights behind the user's back); with `remote` (EXECRET_HF_REMOTE=1) a
 * model missing locally comes from the Hugging Face Hub into the kit's cache. Pooling follows the invocation — `mean`
 * over the attention mask, `cls` (first token) or `last` (last real token,
 * whichever side the tokenizer pads) — and the role prefix is added before
 * tokenising. Texts beyond the model's maximum length are truncated by the
 * tokenizer. onnxruntime loads here, not when the registry lists this provider.
 */
export async function hfProvider(
  inv: Invocation,
  modelsDir: string,
  remote = false,
): Promise<DenseProvider> {
  const { AutoModel, AutoTokenizer, env } = await import("@huggingface/transformers");
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

/** Root folder of local ONNX models for `hf` configs (`EXECRET_MODELS`, default `models`). */
export function modelsDir(env: Record<string, string | undefined> = Deno.env.toObject()): string {
  return env.EXECRET_MODELS ?? "models";
}

/** Whether hf configs may download from the Hugging Face Hub (`EXECRET_HF_REMOTE=1`). */
export function hfRemote(env: Record<string, string | undefined> = Deno.env.toObject()): boolean {
  return env.EXECRET_HF_REMOTE === "1";
}

/** Weight file transformers.js loads for a dtype (its `onnx/model<suffix>.onnx` naming). */
export function onnxFileName(dtype = "fp32"): string {
  const suffix: Record<string, string> = {
    fp32: "",
    fp16: "_fp16",
    q8: "_quantized",
    int8: "_int8",
    uint8: "_uint8",
    q4: "_q4",
    q4f16: "_q4f16",
    bnb4: "_bnb4",
  };
  return `onnx/model${suffix[dtype] ?? `_${dtype}`}.onnx`;
}

/** The local model folder and files a config needs, when remote loading is off. */
export function missingModelFiles(
  inv: Invocation,
  env: Record<string, string | undefined>,
): string[] {
  if (hfRemote(env)) return [];
  const dir = join(modelsDir(env), inv.model);
  if (!existsSync(dir)) {
    return [`model folder ${dir} (an ONNX export: config.json, tokenizer.json, onnx/)`];
  }
  return ["config.json", "tokenizer.json", onnxFileName(inv.dtype)]
    .filter((file) => !existsSync(join(dir, file)))
    .map((file) => `model file ${join(dir, file)}`);
}

/** Registry entry: a local ONNX model, dense; needs its model folder unless remote loading is on. */
export const hfEntry = defineProvider({
  name: "hf",
  kind: "dense",
  hosted: false,
  libraries: ["@huggingface/transformers"],
  missing: missingModelFiles,
  create: (inv, o) => hfProvider(inv, modelsDir(o.env), hfRemote(o.env)),
});
