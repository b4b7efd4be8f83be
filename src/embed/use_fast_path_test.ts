import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { initUseModel } from "./providers/use.ts";
import { FAST_PATH_KERNELS, speedUpUseModel, usePackageKernels } from "./use_fast_path.ts";
import { backendKernel } from "./tfjs_kernels.ts";
import { mbppTexts } from "../../test/support/use_test_texts.ts";

/** The kernels tfjs would run for `name` on the wasm backend right now. */
function wasmKernel(name: string): unknown {
  const globals = (globalThis as { _tfGlobals?: Map<string, Map<string, unknown>> })._tfGlobals;
  return globals?.get("kernelRegistry")?.get(`wasm_${name}`);
}

// The full corpus (all MBPP texts) was checked bit for bit once; a sample
// spread evenly over the lengths, shortest and longest included, keeps the
// check on every length class at a quarter of the former 320 texts' time.
const SAMPLE = 80;

Deno.test(`use fast path: the package's own vectors, bit for bit, on ${SAMPLE} MBPP texts`, async () => {
  const all = await mbppTexts();
  // Spread over the lengths (short task texts to the longest solutions), in
  // length order and batches of 64 like the embed stage, so batches pad
  // (64 + 16: the second batch is short).
  all.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const texts = Array.from(
    { length: SAMPLE },
    (_, i) => all[Math.round(i * (all.length - 1) / (SAMPLE - 1))],
  );
  const model = await initUseModel();
  const embedAll = async () => {
    const out: number[][] = [];
    for (let s = 0; s < texts.length; s += 64) {
      out.push(...await model.embed(texts.slice(s, s + 64)));
    }
    return new Uint32Array(Float32Array.from(out.flat()).buffer);
  };
  const back = usePackageKernels();
  let theirs: Uint32Array;
  try {
    // The package's own kernels really run: another test of this process
    // may have loaded USE through the kit's provider, which puts the kit's in place.
    assertEquals(FAST_PATH_KERNELS.map((k) => wasmKernel(k) === backendKernel(k)), [
      true,
      true,
      true,
    ]);
    theirs = await embedAll();
  } finally {
    back();
  }
  const before = FAST_PATH_KERNELS.map(wasmKernel);
  const restore = speedUpUseModel(model);
  try {
    // The fast path is really in place (else this test would compare a path with itself).
    assertEquals(Object.hasOwn(model.tokenizer, "encode"), true);
    assertEquals(FAST_PATH_KERNELS.map((k) => wasmKernel(k) !== backendKernel(k)), [
      true,
      true,
      true,
    ]);
    const ours = await embedAll();
    assertEquals(ours.length, SAMPLE * 512);
    const firstDiff = ours.findIndex((bits, i) => bits !== theirs[i]);
    assertEquals(firstDiff, -1);
  } finally {
    restore();
  }
  assertEquals(FAST_PATH_KERNELS.map(wasmKernel), before);
  assertEquals(Object.hasOwn(model.tokenizer, "encode"), false);
});
