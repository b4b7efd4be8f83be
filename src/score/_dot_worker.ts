/// <reference lib="deno.worker" />
import { compiled, type KernelBase, runRows } from "./dot_kernel.ts";

/** One thread of {@link dotScoresParallel}: computes a range of output rows in shared memory. */
self.onmessage = (e: MessageEvent) => {
  const { memory, relaxed, base, qStart, qEnd } = e.data as {
    memory: WebAssembly.Memory;
    relaxed: boolean;
    base: KernelBase;
    qStart: number;
    qEnd: number;
  };
  try {
    runRows(compiled(relaxed, true), memory, base, qStart, qEnd);
    self.postMessage({ ok: true });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err) });
  }
};
