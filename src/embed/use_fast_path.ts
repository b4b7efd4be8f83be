import type { EmbeddingsModel } from "@energetic-ai/embeddings";
import { useTokenizer } from "./use_tokenizer.ts";
import { installUseSliceKernels } from "./use_slice_kernels.ts";
import { installUseMatMulKernel } from "./use_matmul_kernel.ts";
import { useBackendKernels } from "./tfjs_kernels.ts";

/** The wasm kernels the fast path puts its own in front of. */
export const FAST_PATH_KERNELS = ["Slice", "SplitV", "BatchMatMul"] as const;

/**
 * Run the package's own kernels until the returned function is called
 * (which puts back what was there): the fast path's kernels are global to
 * the process, so a model loaded through the kit's provider elsewhere in it
 * has already put them in place. The tokenizer is per model, and a model from
 * the package's own `initModel` has its own.
 */
export function usePackageKernels(): () => void {
  return useBackendKernels(FAST_PATH_KERNELS);
}

/**
 * Make a loaded Universal Sentence Encoder faster without changing one bit of
 * its vectors: its tokenizer's `encode` becomes our linear-time equivalent
 * (built from the same vocabulary the package loaded), tfjs' wasm Slice and
 * SplitV become copy-free ones (see use_slice_kernels.ts), and its
 * BatchMatMul a SIMD one for attention's products (use_matmul_kernel.ts),
 * with the same bits. The model still runs through the package's own
 * `embed`, so batching, padding and the graph are the package's. Returns a
 * function that undoes all of it (for the test that compares the two
 * paths). If the package's tokenizer does not expose its vocabulary (another
 * version), its own stays.
 */
export function speedUpUseModel(model: Pick<EmbeddingsModel, "tokenizer">): () => void {
  const tokenizer = model.tokenizer as unknown as {
    vocabulary?: unknown;
    encode: (input: string) => number[];
  };
  const restoreSlices = installUseSliceKernels();
  const restoreMatMul = installUseMatMulKernel();
  const restoreKernels = () => {
    restoreMatMul();
    restoreSlices();
  };
  const vocabulary = tokenizer.vocabulary;
  if (!Array.isArray(vocabulary)) return restoreKernels;
  const fast = useTokenizer(vocabulary);
  // An own property shadows the class's method; deleting it brings that back.
  tokenizer.encode = (input: string) => fast.encode(input);
  return () => {
    delete (tokenizer as { encode?: unknown }).encode;
    restoreKernels();
  };
}
