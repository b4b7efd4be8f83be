import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { orderByScore } from "./hosted_reranker.ts";
import { parseRerankConfig } from "../reranker_registry.ts";
import type { RerankInput, RerankQuery } from "../reranker.ts";
import { rerankServer, TEST_KEY } from "../../../test/support/loopback_rerank.ts";

Deno.env.set("EXECRET_QUIET", "1");

Deno.test("orderByScore: score descending, ties in base order", () => {
  const c = ["a", "b", "c", "d"].map((corpus_id, i) => ({ corpus_id, rank: i + 1 }));
  assertEquals(orderByScore(c, [0.2, 0.9, 0.2, 0.5]).map((x) => x.corpus_id), ["b", "d", "a", "c"]);
  // Same scores with the base order reversed: the tie follows the base.
  const r = [...c].reverse().map((x, i) => ({ ...x, rank: i + 1 }));
  assertEquals(orderByScore(r, [0.5, 0.2, 0.9, 0.2]).map((x) => x.corpus_id), ["b", "d", "c", "a"]);
});

/** A query whose base ranking is `codes` in order. */
function query(id: string, text: string, codes: string[]): RerankQuery {
  return {
    query_id: id,
    task_id: id,
    query: text,
    entry_point: "f",
    setup: "",
    visible_tests: [],
    rankings: [
      codes.map((code, i) => ({ corpus_id: `${id}/${i}`, code, rank: i + 1, score: 1 - i / 10 })),
    ],
  };
}

Deno.test("<base>+rerank:<name> reorders each query's top k by the API's scores, cost per query", async () => {
  // Scores the server gives: by the digit the snippet returns; 7 and 7 tie.
  const score = (_q: string, d: string) => Number(/return (\d)/.exec(d)![1]) / 10;
  const server = rerankServer("cohere", { model: "rerank-v3.5", score, maxTokensPerDoc: 4096 });
  // Scores are cached under EXECRET_CACHE: a fresh folder, so no earlier run
  // answers and none is left behind. Set here, not when the module loads:
  // the fast suite runs every module in one process, and tests that ran
  // before this one unset EXECRET_CACHE, which sent these scores to the
  // project's own out/cache, where the next `make test` found them.
  const savedCache = Deno.env.get("EXECRET_CACHE");
  const cacheRoot = await Deno.makeTempDir({ prefix: "execret-rerank-cache-" });
  Deno.env.set("EXECRET_CACHE", cacheRoot);
  try {
    const spec = parseRerankConfig("bm25+rerank:cohere-rerank-v3.5@4");
    const reranker = await spec.entry.create({
      rrfK: 60,
      runtime: "pyodide",
      timeoutMs: 1000,
      quiet: true,
      env: { COHERE_API_KEY: TEST_KEY, COHERE_BASE_URL: `${server.url}/v2` },
    });
    strictEqual(reranker.kind, "hosted");
    const input: RerankInput = {
      config: spec.config,
      bases: spec.bases,
      k: spec.k,
      queries: [
        query("q1", "pick one", ["return 1", "return 7", "return 3", "return 7"]),
        query("q2", "pick two", ["return 2", "return 9"]),
      ],
    };
    const out = await reranker.rerank(input);
    assertEquals(out.queries.map((q) => q.query_id), ["q1", "q2"]);
    assertEquals(out.queries[0].order.map((o) => o.corpus_id), ["q1/1", "q1/3", "q1/2", "q1/0"]);
    assertEquals(out.queries[0].order.map((o) => o.score), [0.7, 0.7, 0.3, 0.1]);
    assertEquals(out.queries[1].order.map((o) => o.corpus_id), ["q2/1", "q2/0"]);
    strictEqual(out.queries[0].cost.api_calls, 1);
    strictEqual(out.queries[0].cost.tokens > 0, true);
    strictEqual(server.requests.length, 2);
    // A rerun is served by the cache and reports the same order and cost.
    const again = await reranker.rerank(input);
    strictEqual(server.requests.length, 2);
    assertEquals(again, out);
    // The scores went to this test's folder.
    strictEqual([...Deno.readDirSync(cacheRoot)].length > 0, true);
  } finally {
    await server.close();
    if (savedCache === undefined) Deno.env.delete("EXECRET_CACHE");
    else Deno.env.set("EXECRET_CACHE", savedCache);
    await Deno.remove(cacheRoot, { recursive: true });
  }
});
