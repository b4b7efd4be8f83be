import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { describeRerankers, loadRerankers, rerankerFor } from "./rerankers_table.ts";
import { parseRerankConfig, RERANKERS } from "../reranker_registry.ts";

Deno.test("the committed table loads: three providers, documented pages, top 10", async () => {
  const table = await loadRerankers();
  assertEquals(new Set(table.map((r) => r.provider)), new Set(["cohere", "voyage", "jina"]));
  for (const r of table) {
    ok(r.doc.startsWith("https://"), `${r.name}: doc`);
    strictEqual(r.top_k, 10);
    ok(r.base_url && r.base_url_env, `${r.name}: base_url and its override`);
  }
  const cohere = await rerankerFor("cohere-rerank-v3.5");
  strictEqual(cohere.model, "rerank-v3.5");
  strictEqual(cohere.key_env, "COHERE_API_KEY");
  strictEqual(cohere.limits.documents, 1000);
  strictEqual((await rerankerFor("voyage-rerank-2.5")).limits.tokens_per_request, 600_000);
  strictEqual((await rerankerFor("jina-reranker-v2")).model, "jina-reranker-v2-base-multilingual");
  await rejects(rerankerFor("nope"), /^Error: unknown hosted reranker "nope"; known: cohere/);
});

const BASE = {
  name: "x",
  provider: "voyage",
  model: "rerank-2.5",
  key_env: "VOYAGE_API_KEY",
  base_url: "https://api.voyageai.com/v1",
  doc: "https://docs.voyageai.com/reference/reranker-api",
};

for (
  const [what, entries, error] of [
    ["a missing key_env", [{ ...BASE, key_env: undefined }], /entry 0 \(x\): missing "key_env"$/],
    [
      "an unknown provider",
      [{ ...BASE, provider: "acme" }],
      /entry 0 \(x\): provider "acme" is not one of cohere, voyage, jina$/,
    ],
    [
      "an unknown limit",
      [{ ...BASE, limits: { texts: 5 } }],
      /entry 0 \(x\): "limits\.texts" is not one of/,
    ],
    [
      "a zero limit",
      [{ ...BASE, limits: { documents: 0 } }],
      /entry 0 \(x\): "limits\.documents" must be a positive integer$/,
    ],
    [
      "a bad top_k",
      [{ ...BASE, top_k: 2.5 }],
      /entry 0 \(x\): "top_k" must be a positive integer$/,
    ],
    ["an unknown field", [{ ...BASE, topk: 3 }], /entry 0 \(x\): unknown field "topk"$/],
    [
      "no URL at all",
      [{ ...BASE, base_url: undefined }],
      /entry 0 \(x\): needs "base_url" or "base_url_env"$/,
    ],
    ["a duplicate name", [BASE, BASE], /entry 1 \(x\): duplicate name "x"$/],
    ["a bad name", [{ ...BASE, name: "Has Space" }], /must match/],
  ] as const
) {
  Deno.test(`table with ${what}: a one-line error naming the file and entry`, async () => {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "rerankers.json");
    try {
      await Deno.writeTextFile(path, JSON.stringify({ rerankers: entries }));
      await rejects(loadRerankers(path), (e: Error) => {
        ok(e.message.startsWith(`${path}: entry `), e.message);
        ok(error.test(e.message), e.message);
        ok(!e.message.includes("\n"));
        return true;
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a table that is not JSON names the file", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "rerankers.json");
  try {
    await Deno.writeTextFile(path, "{ nope");
    await rejects(loadRerankers(path), new RegExp(`^Error: ${path}: not valid JSON`));
    await Deno.writeTextFile(path, "[]");
    await rejects(loadRerankers(path), new RegExp(`^Error: ${path}: expected \\{"rerankers"`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("describeRerankers says which can run and which env var is missing", async () => {
  const lines = describeRerankers(await loadRerankers(), { COHERE_API_KEY: "k" });
  const line = (name: string) => lines.find((l) => l.startsWith(name + " "))!;
  ok(line("cohere-rerank-v3.5").endsWith("ready"), line("cohere-rerank-v3.5"));
  ok(line("cohere-rerank-v3.5").includes("cohere rerank-v3.5  top 10  documents 1000"));
  ok(line("voyage-rerank-2.5").endsWith("missing env var VOYAGE_API_KEY (API key)"));
  // Its release post gives 10,240 tokens for query + document.
  ok(line("jina-reranker-m0").includes("tokens per document 10240"), line("jina-reranker-m0"));
});

Deno.test("every table entry is registered as <base>+rerank:<name>", async () => {
  for (const r of await loadRerankers()) {
    const spec = parseRerankConfig(`bm25+rerank:${r.name}`);
    strictEqual(spec.entry.kind, "hosted");
    strictEqual(spec.entry.name, r.name);
    assertEquals(spec.bases, ["bm25"]);
  }
  strictEqual(RERANKERS.filter((e) => e.kind === "hosted").length, (await loadRerankers()).length);
});
