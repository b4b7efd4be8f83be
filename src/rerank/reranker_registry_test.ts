import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { parseRerankConfig, RERANKERS } from "./reranker_registry.ts";
import type { RerankerEntry } from "./reranker.ts";

Deno.test("parseRerankConfig: exec, rrf and hosted names, with an optional @k", () => {
  const exec = parseRerankConfig("bm25+exec");
  assertEquals([exec.entry.name, exec.bases, exec.k], ["exec", ["bm25"], 10]);
  const rrf = parseRerankConfig("rrf:bm25+tfidf@5");
  assertEquals([rrf.entry.name, rrf.bases, rrf.k], ["rrf", ["bm25", "tfidf"], 5]);
  const hosted: RerankerEntry = {
    name: "fake",
    kind: "hosted",
    bases: 1,
    description: "",
    create: () => Promise.reject(new Error("unused")),
  };
  const h = parseRerankConfig("voyage-code-3+rerank:fake", [...RERANKERS, hosted]);
  assertEquals([h.entry.name, h.bases], ["fake", ["voyage-code-3"]]);
});

Deno.test("parseRerankConfig: one-line errors naming the config", () => {
  throws(() => parseRerankConfig("bm25"), /"bm25": not <base>\+exec/);
  throws(() => parseRerankConfig("bm25+exec@11"), /top k must be 1–10/);
  throws(() => parseRerankConfig("rrf:bm25"), /rrf takes two configs/);
  throws(() => parseRerankConfig("rrf:bm25+bm25"), /with itself/);
  throws(() => parseRerankConfig("bm25+rerank:nope"), /unknown reranker "nope"/);
  throws(() => parseRerankConfig("bm25+rerank:exec"), /not a hosted reranker/);
  throws(() => parseRerankConfig("+exec"), /empty or reranked/);
  throws(() => parseRerankConfig("bm25+exec+exec"), /empty or reranked/);
});

Deno.test("parseRerankConfig: a new entry is named by its own name, no parser change", () => {
  const entry = (name: string, bases: 1 | 2): RerankerEntry => ({
    name,
    kind: bases === 2 ? "fusion" : "local",
    bases,
    description: "",
    create: () => Promise.reject(new Error("unused")),
  });
  const entries = [...RERANKERS, entry("overlap", 1), entry("comb", 2)];
  const one = parseRerankConfig("bm25+overlap@3", entries);
  assertEquals([one.entry.name, one.bases, one.k], ["overlap", ["bm25"], 3]);
  const two = parseRerankConfig("comb:bm25+use", entries);
  assertEquals([two.entry.name, two.bases], ["comb", ["bm25", "use"]]);
  throws(() => parseRerankConfig("comb:bm25", entries), /comb takes two configs: comb:<a>\+<b>/);
  throws(() => parseRerankConfig("bm25+overlap", RERANKERS), /"bm25\+overlap": not <base>\+exec/);
  throws(() => parseRerankConfig("bm25+rerank:overlap", entries), /not a hosted reranker/);
});
