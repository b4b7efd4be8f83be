import { ok, strictEqual } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Invocation } from "../invocation.ts";
import { providerFor } from "../provider_registry.ts";
import type { DenseProvider } from "../provider.ts";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/embed/", import.meta.url));

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

const POOL = [
  "def reverse_string(s):\n    return s[::-1]",
  "def count_vowels(text):\n    return sum(1 for c in text if c in 'aeiou')",
  "def is_even(n):\n    return n % 2 == 0",
  "def add(a, b):\n    return a + b",
];

async function rankFirst(p: DenseProvider, query: string): Promise<number> {
  const [q] = await p.embed([query], "query");
  const docs = await p.embed(POOL, "document");
  const scores = docs.map((d) => cosine(q, d));
  return scores.indexOf(Math.max(...scores));
}

Deno.test("use: unit-norm 512-dim vectors; the matching snippet ranks first", async () => {
  const inv: Invocation = {
    name: "use-test",
    provider: "use",
    model: "use",
    similarity: "cosine",
    dims: 512,
    normalize: false,
    batch_size: 3,
    query: {},
    document: {},
    doc: "test",
  };
  const p = await providerFor(inv) as DenseProvider;
  const vs = await p.embed(POOL, "document");
  strictEqual(vs.length, POOL.length);
  for (const v of vs) {
    strictEqual(v.length, 512);
    ok(Math.abs(norm(v) - 1) < 1e-3, `norm ${norm(v)}`);
  }
  strictEqual(await rankFirst(p, "reverse a string"), 0);
  strictEqual(await rankFirst(p, "count the vowels in a text"), 1);
});

for (const pooling of ["mean", "cls", "last"] as const) {
  Deno.test(`hf (tiny random BERT, ${pooling} pooling): right size, unit norm, exact match first`, async () => {
    const inv: Invocation = {
      name: `tiny-bert-${pooling}`,
      provider: "hf",
      model: "tiny-bert",
      similarity: "cosine",
      dims: 32,
      normalize: true,
      pooling,
      batch_size: 3,
      query: { prefix: "find: " },
      document: {},
      doc: "test",
    };
    const p = await providerFor(inv, { env: { EXECRET_MODELS: FIXTURES } }) as DenseProvider;
    const vs = await p.embed(POOL, "document");
    strictEqual(vs.length, POOL.length);
    for (const v of vs) {
      strictEqual(v.length, 32);
      ok(Math.abs(norm(v) - 1) < 1e-5);
    }
    // Padding must not change a vector: alone vs in a batch with longer texts.
    const [alone] = await p.embed([POOL[3]], "document");
    ok(cosine(alone, vs[3]) > 0.99999, `batching changed the vector (${pooling})`);
    if (pooling === "mean") strictEqual(await rankFirst(p, POOL[2]), 2);
  });
}

Deno.test("hf: a missing model folder is a one-line error naming the folder", async () => {
  const inv: Invocation = {
    name: "absent",
    provider: "hf",
    model: "no-such-model",
    similarity: "cosine",
    dims: 8,
    normalize: true,
    query: {},
    document: {},
    doc: "test",
  };
  let message = "";
  try {
    await providerFor(inv, { env: { EXECRET_MODELS: "/nonexistent" } });
  } catch (e) {
    message = (e as Error).message;
  }
  ok(
    message.startsWith("absent: missing model folder /nonexistent/no-such-model"),
    message,
  );
  ok(!message.includes("\n"));
});
