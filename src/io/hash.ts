import { createHash } from "node:crypto";

/**
 * SHA-256 of a string (as UTF-8) or bytes, as lowercase hex.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(
 *   sha256Hex("abc"),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Digest of a value after canonical JSON serialisation (sorted keys), so that
 * two records equal as data hash equal whatever their key order or whitespace.
 */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** JSON with object keys sorted recursively; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = sortKeys((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}
