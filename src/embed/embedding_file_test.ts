import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { summarizeEmbeddingFile, writeEmbeddingFile } from "./embedding_file.ts";
import { validateInvocation } from "./invocations.ts";
import { decodeSegment, encodeSegment, openVectorCache } from "./vector_cache.ts";

const inv = validateInvocation({
  name: "t",
  provider: "use",
  model: "m",
  similarity: "cosine",
  dims: 3,
  normalize: false,
  query: {},
  document: {},
  doc: "https://example.org",
}, "test");

Deno.test("summary flags non-finite values, zero norms and duplicate ids", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "t.arrow");
    await writeEmbeddingFile(path, inv, [
      { id: "q1", role: "query", vector: Float32Array.of(3, 4, 0) },
      { id: "d1", role: "document", vector: Float32Array.of(0, 0, 0) },
      { id: "d2", role: "document", vector: Float32Array.of(NaN, 1, 1) },
      { id: "d2", role: "document", vector: Float32Array.of(1, 0, 0) },
    ], "2026-01-01T00:00:00.000Z");
    const s = await summarizeEmbeddingFile(path);
    strictEqual(s.config, "t");
    strictEqual(s.rows, 4);
    strictEqual(s.queries, 1);
    strictEqual(s.documents, 3);
    strictEqual(s.dims, 3);
    strictEqual(s.nonFinite, 1);
    strictEqual(s.zeroNorm, 1);
    strictEqual(s.normMin, 0);
    strictEqual(s.normMax, 5);
    ok(Math.abs(s.normMean - 2) < 1e-9);
    strictEqual(s.duplicateIds, 1);
    assertEquals(s.problems, ["1 duplicate (role, id) rows"]);
    // Same rows and created-at: same bytes.
    const again = join(dir, "again.arrow");
    await writeEmbeddingFile(again, inv, [
      { id: "q1", role: "query", vector: Float32Array.of(3, 4, 0) },
      { id: "d1", role: "document", vector: Float32Array.of(0, 0, 0) },
      { id: "d2", role: "document", vector: Float32Array.of(NaN, 1, 1) },
      { id: "d2", role: "document", vector: Float32Array.of(1, 0, 0) },
    ], "2026-01-01T00:00:00.000Z");
    assertEquals(await Deno.readFile(again), await Deno.readFile(path));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("vector segments round-trip; an unreadable segment is skipped, the earlier fetch wins", async () => {
  const vectors = [Float32Array.of(1, -2.5, 3e-8), Float32Array.of(0, 0, 1)];
  const bytes = encodeSegment(["k1", "k2"], vectors, "2026-01-01T00:00:00.000Z");
  const back = decodeSegment(bytes);
  assertEquals(back.keys, ["k1", "k2"]);
  assertEquals(back.vectors, vectors);
  strictEqual(back.fetchedAt, "2026-01-01T00:00:00.000Z");

  const root = await Deno.makeTempDir();
  try {
    const dir = join(root, "vectors", "t");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeFile(join(dir, "b.seg"), bytes);
    await Deno.writeFile(
      join(dir, "a.seg"),
      encodeSegment(["k1"], [Float32Array.of(9, 9, 9)], "2025-12-31T00:00:00.000Z"),
    );
    await Deno.writeFile(join(dir, "c.seg"), bytes.subarray(0, bytes.length - 3)); // torn
    const cache = await openVectorCache("t", root);
    strictEqual(cache.size(), 2);
    assertEquals(cache.get("k1")?.vector, Float32Array.of(9, 9, 9));
    assertEquals(cache.get("k2")?.vector, vectors[1]);
    await cache.putBatch(["k3"], [Float32Array.of(1, 1, 1)]);
    strictEqual((await openVectorCache("t", root)).size(), 3);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
