/**
 * Whether the Universal Sentence Encoder's vectors depend on the batch a
 * text is embedded in, through the path the embed stage uses (its fixed
 * batching, a worker process). They do: the same texts one at a time give
 * other float32 bits than in the stage's batch of 64 (measured 2026-12-01:
 * 82 of 128 MBPP solutions differ, by up to ~1.8e5 ulp in a value; batches
 * of 13 changed 5 of 150). So what is embedded ahead of the stage
 * (prefetch.ts) is adopted only for a batch with exactly the stage's texts in
 * the stage's order; the same batch gives the same bits in any process.
 */
import { ok, strictEqual } from "node:assert/strict";
import { invocationFor } from "./invocations.ts";
import { keyItems, planBatches } from "./batch_plan.ts";
import { embedInWorkers } from "./parallel_embed.ts";
import { useProvider } from "./providers/use.ts";
import { mbppTexts } from "../../test/support/use_test_texts.ts";

const bits = (v: Float32Array) => [...new Uint32Array(Float32Array.from(v).buffer)];
const same = (a: Float32Array, b: Float32Array) => bits(a).every((x, i) => x === bits(b)[i]);

Deno.test({
  name: "use: a batch gives the same bits in a worker and in-process; other batchings do not",
  sanitizeResources: false,
  async fn() {
    const inv = await invocationFor("use");
    // 24 MBPP solutions (documents, as in the stage): one whole batch of the stage.
    const codes = (await mbppTexts()).filter((_, i) => i % 2 === 0).slice(0, 24);
    const items = keyItems(inv, codes.map((text, i) => ({ id: `c${i}`, role: "document", text })));
    const { batches } = planBatches(inv, items);
    strictEqual(batches.length, 1);
    const texts = batches[0].part.map((p) => p.text);
    let inWorker: Float32Array[] = [];
    await embedInWorkers(inv, [{ role: "document", texts }], { workers: 1 }, (_, report) => {
      inWorker = report.vectors;
      return Promise.resolve();
    });
    const provider = useProvider(inv);
    const batch = await provider.embed(texts, "document");
    strictEqual(inWorker.length, 24);
    ok(inWorker.every((v, i) => same(v, batch[i])), "the same batch, other process: same bits");
    // One text whose vector alone differs from its batch's settles it; the
    // rest would only cost time (each embedded alone).
    let differs = -1;
    for (let i = 0; i < texts.length && differs < 0; i++) {
      const [alone] = await provider.embed([texts[i]], "document");
      if (!same(alone, batch[i])) differs = i;
    }
    ok(
      differs >= 0,
      "one text per batch gave the batch's bits for every text: USE is batch-invariant here",
    );
  },
});
