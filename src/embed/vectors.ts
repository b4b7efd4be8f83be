import type { Invocation } from "./invocation.ts";

/**
 * Check a provider's answer for a batch and turn it into float32 vectors:
 * exactly one vector per text, each `inv.dims` long, every value finite;
 * L2-normalised when the invocation says so. Any violation is a one-line
 * error naming the config — never a silently wrong or missing vector.
 */
export function finishVectors(
  inv: Invocation,
  raw: ArrayLike<number>[] | undefined,
  expected: number,
  where: string,
): Float32Array[] {
  if (!Array.isArray(raw)) throw new Error(`${inv.name}: ${where}: no vectors in the response`);
  if (raw.length !== expected) {
    throw new Error(`${inv.name}: ${where}: got ${raw.length} vectors for ${expected} texts`);
  }
  return raw.map((v, i) => {
    if (!v || typeof v.length !== "number") {
      throw new Error(`${inv.name}: ${where}: vector ${i} is not an array`);
    }
    if (inv.dims !== undefined && v.length !== inv.dims) {
      throw new Error(
        `${inv.name}: ${where}: vector ${i} has ${v.length} dims, expected ${inv.dims}`,
      );
    }
    const out = Float32Array.from(v);
    for (let j = 0; j < out.length; j++) {
      if (!Number.isFinite(out[j]) || typeof v[j] !== "number") {
        throw new Error(`${inv.name}: ${where}: vector ${i} has a non-numeric or non-finite value`);
      }
    }
    return inv.normalize ? l2Normalize(out) : out;
  });
}

/** Scale a vector to unit length in place (a zero vector stays zero). */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum);
  if (norm > 0) { for (let i = 0; i < v.length; i++) v[i] /= norm; }
  return v;
}
