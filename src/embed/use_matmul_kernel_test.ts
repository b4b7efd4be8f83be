import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { initUseModel } from "./providers/use.ts";
import { installUseMatMulKernel } from "./use_matmul_kernel.ts";
import { backendKernel, kernelRegistry } from "./tfjs_kernels.ts";

/** What the test uses of tfjs' engine (the one the model runs on). */
interface Engine {
  backendName: string;
  makeTensor(values: Float32Array, shape: number[], dtype: string): Tensor;
  runKernel(name: string, inputs: Record<string, Tensor>, attrs: Record<string, unknown>): Tensor;
}
interface Tensor {
  shape: number[];
  dataSync(): Float32Array;
  dispose(): void;
}

/** Floats over many exponents and both signs, some zeros, from a seed (xorshift). */
function randomFloats(n: number, seed: number): Float32Array {
  let x = seed >>> 0 || 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const u = (x >>> 0) / 2 ** 32;
    out[i] = i % 97 === 0 ? 0 : (u - 0.5) * 2 ** ((x >>> 8) % 12 - 4);
  }
  return out;
}

const size = (shape: number[]) => shape.reduce((x, y) => x * y, 1);

Deno.test("use matmul kernel: the wasm backend's own BatchMatMul bits, on shapes of every kind", async () => {
  // Loading the model brings up tfjs and its wasm backend.
  await initUseModel();
  const engine = (globalThis as { _tfengine?: Engine })._tfengine!;
  assertEquals(engine.backendName, "wasm");
  const registry = kernelRegistry()!;
  const theirs = backendKernel("BatchMatMul")!;
  const before = registry.get("wasm_BatchMatMul");
  const restore = installUseMatMulKernel();
  const ours = registry.get("wasm_BatchMatMul")!;
  try {
    // The kernel is really in place (else the test would compare a kernel with itself).
    assertEquals(ours !== theirs, true);
    // [outer dims, m, k, n, transposeB]: attention-like products, k across
    // the fallback loop's block edges of 48, n not a multiple of 4 or 16,
    // batch 1 with b transposed; the last is one the kernel leaves to the
    // backend's own (XNNPACK).
    const cases: [number[], number, number, number, boolean][] = [
      [[3, 4], 37, 128, 37, true],
      [[3, 4], 37, 37, 128, false],
      [[2], 5, 48, 16, false],
      [[2], 7, 49, 18, true],
      [[5], 96, 97, 33, false],
      [[1], 1, 1, 1, false],
      [[], 9, 100, 21, true],
      [[], 9, 100, 21, false],
    ];
    for (const [outer, m, k, n, transposeB] of cases) {
      const shapeA = [...outer, m, k];
      const shapeB = transposeB ? [...outer, n, k] : [...outer, k, n];
      const label = `a [${shapeA}], b [${shapeB}]${transposeB ? " transposed" : ""}`;
      const a = engine.makeTensor(randomFloats(size(shapeA), m * 131 + k), shapeA, "float32");
      const b = engine.makeTensor(randomFloats(size(shapeB), n * 7 + k), shapeB, "float32");
      const product = (kernel: typeof ours) => {
        registry.set("wasm_BatchMatMul", kernel);
        const out = engine.runKernel("BatchMatMul", { a, b }, { transposeA: false, transposeB });
        const result = { shape: out.shape, bits: new Uint32Array(out.dataSync().slice().buffer) };
        out.dispose();
        return result;
      };
      const mine = product(ours);
      const own = product(theirs);
      a.dispose();
      b.dispose();
      assertEquals(mine.shape, [...outer, m, n], label);
      assertEquals(own.shape, mine.shape, label);
      assertEquals(mine.bits.length, size(mine.shape), label);
      assertEquals(mine.bits.findIndex((v, i) => v !== own.bits[i]), -1, label);
    }
  } finally {
    restore();
  }
  assertEquals(registry.get("wasm_BatchMatMul"), before);
});
