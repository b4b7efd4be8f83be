/**
 * Reading a release-sized `.npz`: 5,633 × 4,096 float32 (the largest
 * matrix of the paper, queries + corpus stacked), written by numpy's
 * `savez_compressed` into a temp folder when the bench starts.
 * Run: `deno bench --allow-all src/release/npz.bench.ts`.
 */
import { join } from "node:path";
import { readNpz } from "./npz.ts";
import { PYTHON, runPython } from "../../test/support/npz_fixture.ts";

const dir = await Deno.makeTempDir({ prefix: "npz-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const path = join(dir, "big.npz");
await runPython(
  `import numpy as np
np.savez_compressed("big.npz", emb=np.random.default_rng(1).standard_normal((5633, 4096), dtype=np.float32))`,
  dir,
);
const bytes = await Deno.readFile(path);

Deno.bench({
  name: `readNpz 5,633 × 4,096 float32, deflate (${(bytes.length / 1e6).toFixed(0)} MB; ${PYTHON})`,
  n: 3,
  warmup: 1,
  fn: async () => {
    const arrays = await readNpz(bytes, path);
    if (arrays.get("emb")!.data.length !== 5633 * 4096) throw new Error("wrong size");
  },
});
