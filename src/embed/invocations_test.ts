import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import { invocationFor, loadInvocations, validateInvocation } from "./invocations.ts";
import { roleParams, textToSend } from "./invocation.ts";
import { isSparse, missingRequirements } from "./provider_registry.ts";

Deno.test("the committed table loads, names are unique and every entry cites its doc page", async () => {
  const table = await loadInvocations();
  const names = table.map((i) => i.name);
  strictEqual(new Set(names).size, names.length);
  for (
    const required of [
      "bm25",
      "tfidf",
      "use",
      "gemini-embedding-2",
      "gemini-embedding-001",
      "mistral-embed",
      "qwen3-embedding-4b",
      "qwen3-embedding-8b",
      "bge-base-en-v1.5",
      "bge-large-en-v1.5",
      "multi-qa-mpnet-base-dot-v1",
      "openai-3-small",
      "openai-3-large",
      "voyage-code-3",
      "cohere-embed-v4",
      "jina-v2-base-code",
      "jina-code-embeddings-1.5b",
      "jina-code-embeddings-0.5b",
      "codestral-embed",
      "nomic-embed-code",
    ]
  ) ok(names.includes(required), `missing ${required}`);
  for (const inv of table) ok(inv.doc.startsWith("https://"), `${inv.name}: doc`);
  strictEqual((await invocationFor("multi-qa-mpnet-base-dot-v1")).similarity, "dot");
  ok(isSparse(await invocationFor("bm25")));
  ok(!isSparse(await invocationFor("use")));
});

Deno.test("offline defaults need nothing; hosted ones name their env var", async () => {
  for (const name of ["bm25", "tfidf", "use"]) {
    assertEquals(missingRequirements(await invocationFor(name), {}), []);
  }
  assertEquals(missingRequirements(await invocationFor("voyage-code-3"), {}), [
    "env var VOYAGE_API_KEY (API key)",
  ]);
  assertEquals(
    missingRequirements(await invocationFor("voyage-code-3"), { VOYAGE_API_KEY: "k" }),
    [],
  );
  // Local ONNX models: the folder, unless hub downloads are allowed.
  const bge = await invocationFor("bge-base-en-v1.5");
  ok(missingRequirements(bge, { EXECRET_MODELS: "/nonexistent" })[0].startsWith("model folder"));
  assertEquals(
    missingRequirements(bge, { EXECRET_MODELS: "/nonexistent", EXECRET_HF_REMOTE: "1" }),
    [],
  );
  // Self-hosted servers: the URL is required, the key is not.
  assertEquals(missingRequirements(await invocationFor("qwen3-embedding-4b"), {}), [
    "env var EXECRET_QWEN3_4B_URL (server URL)",
  ]);
});

Deno.test("bad entries fail with one line naming the entry", () => {
  const good = {
    name: "x",
    provider: "voyage",
    model: "m",
    similarity: "cosine",
    dims: 4,
    normalize: true,
    key_env: "K",
    query: {},
    document: {},
    doc: "https://example.org",
  };
  validateInvocation(good, "t: entry 0 (x)");
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...good, provider: "nope" }, /^t: entry 0 \(x\): provider "nope" is not one of/],
    [{ ...good, similarity: "l2" }, /similarity/],
    [{ ...good, dims: undefined }, /dense provider needs "dims"/],
    [{ ...good, key_env: undefined }, /hosted provider needs "key_env"/],
    [{ ...good, query: { prefx: "a" } }, /"query.prefx" is not prefix or params/],
    [{ ...good, colour: 1 }, /unknown field "colour"/],
    [{ ...good, name: "Bad Name" }, /must match/],
    [{ ...good, limits: { texts: 0 } }, /"limits.texts" must be a positive integer/],
    [{ ...good, limits: { tokens: 5 } }, /"limits.tokens" is not texts, tokens_per_request/],
  ];
  for (const [entry, re] of cases) {
    throws(() => validateInvocation(entry, "t: entry 0 (x)"), (e: Error) => {
      ok(re.test(e.message), e.message);
      ok(!e.message.includes("\n"));
      return true;
    });
  }
});

Deno.test("a broken table file names the file", async () => {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(path, JSON.stringify({ invocations: [{ name: "a", provider: "use" }] }));
  await rejects(
    loadInvocations(path),
    new RegExp(`^UserError: ${path}: entry 0 \\(a\\): missing "model"`),
  );
  await rejects(invocationFor("zzz"), /unknown config "zzz"; known: bm25, tfidf, use/);
  await Deno.remove(path);
});

Deno.test("textToSend adds the role prefix and truncates per policy", () => {
  const inv = validateInvocation({
    name: "p",
    provider: "hf",
    model: "m",
    similarity: "cosine",
    dims: 4,
    normalize: true,
    max_chars: 10,
    query: { prefix: "q: ", params: { t: "Q" } },
    document: {},
    params: { shared: 1, t: "D" },
    doc: "https://example.org",
  }, "t");
  strictEqual(textToSend(inv, "abc", "query"), "q: abc");
  strictEqual(textToSend(inv, "abcdefghijkl", "query"), "q: abcdefg");
  strictEqual(textToSend(inv, "abc", "document"), "abc");
  assertEquals(roleParams(inv, "query"), { shared: 1, t: "Q" });
  assertEquals(roleParams(inv, "document"), { shared: 1, t: "D" });
  throws(
    () => textToSend({ ...inv, truncation: "error" }, "abcdefghijkl", "document"),
    /over max_chars 10/,
  );
});
