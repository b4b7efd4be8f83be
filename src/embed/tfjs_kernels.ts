/**
 * tfjs' kernel registry for the wasm backend that `@energetic-ai/embeddings`
 * runs the Universal Sentence Encoder on, and the swap of one kernel for a
 * faster one of the kit's with the same results (use_slice_kernels.ts,
 * use_matmul_kernel.ts).
 *
 * The registry is the `Map` tfjs keeps under `globalThis._tfGlobals`: the
 * package does not export tfjs' `registerKernel`, and importing its bundled
 * tfjs directly would add a dependency to the lockfile. The registry is
 * global to the process, so a swap holds for every model loaded in it: each
 * kernel of the kit's keeps the backend's own beside it, which
 * {@link backendKernel} finds, so the package's own path can still be run
 * (the bench and the tests compare the two).
 */

/** What the kernels use of tfjs' wasm backend (`BackendWasm`). */
export interface WasmBackend {
  makeOutput(shape: number[], dtype: string): TensorInfo;
  dataIdMap: { get(dataId: object): { memoryOffset: number } | undefined };
  wasm: { HEAPU8: Uint8Array };
}

export interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

/** A kernel's arguments (inputs by name: `x` for Slice, `a` and `b` for BatchMatMul). */
export interface KernelArgs {
  inputs: Record<string, TensorInfo>;
  attrs: Record<string, unknown>;
  backend: WasmBackend;
}

export interface KernelConfig {
  kernelName: string;
  backendName: string;
  kernelFunc: (args: KernelArgs) => TensorInfo | TensorInfo[];
  setupFunc?: unknown;
  disposeFunc?: unknown;
}

const BACKEND_KERNEL = Symbol("the wasm backend's own kernel");
type Swapped = KernelConfig & { [BACKEND_KERNEL]?: KernelConfig };

/** tfjs' kernel registry (key `backend_kernel`), shared by every copy of tfjs in the process. */
export function kernelRegistry(): Map<string, KernelConfig> | undefined {
  const globals = (globalThis as { _tfGlobals?: Map<string, unknown> })._tfGlobals;
  const registry = globals?.get("kernelRegistry");
  return registry instanceof Map ? registry as Map<string, KernelConfig> : undefined;
}

/** The wasm backend's own kernel `name` (e.g. "Slice"), whether or not one of the kit's stands in front of it. */
export function backendKernel(name: string): KernelConfig | undefined {
  const current = kernelRegistry()?.get(`wasm_${name}`) as Swapped | undefined;
  return current?.[BACKEND_KERNEL] ?? current;
}

/**
 * Put `make(own)` in front of the wasm backend's own kernel `name` (`own`,
 * which the new kernel calls for the cases it leaves alone). Returns a
 * function that puts back what was registered before, or undefined (and
 * changes nothing) when tfjs or that kernel is not loaded yet.
 */
export function swapKernel(
  name: string,
  make: (own: KernelConfig) => KernelConfig["kernelFunc"],
): (() => void) | undefined {
  const registry = kernelRegistry();
  const key = `wasm_${name}`;
  const current = registry?.get(key);
  const own = backendKernel(name);
  if (!registry || !current || !own) return undefined;
  const swapped: Swapped = { ...own, kernelFunc: make(own), [BACKEND_KERNEL]: own };
  registry.set(key, swapped);
  return () => {
    registry.set(key, current);
  };
}

/**
 * Register the wasm backend's own kernels `names` for as long as the package's
 * own path is measured or compared; returns a function that puts back what
 * was registered before.
 */
export function useBackendKernels(names: readonly string[]): () => void {
  const registry = kernelRegistry();
  if (!registry) return () => {};
  const before = names.map((n) => [`wasm_${n}`, registry.get(`wasm_${n}`)] as const);
  for (const n of names) {
    const own = backendKernel(n);
    if (own) registry.set(`wasm_${n}`, own);
  }
  return () => {
    for (const [key, config] of before) if (config) registry.set(key, config);
  };
}
