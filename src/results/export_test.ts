import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { trecQrels, trecRun } from "./trec.ts";
import { beirFiles } from "./beir.ts";

Deno.test("trecRun writes score = 1000 - rank so trec_eval keeps our tie-broken order", () => {
  assertEquals(
    trecRun("bm25", [
      { query_id: "mbpp/1", corpus_id: "mbpp/1#m0", rank: 1 },
      { query_id: "mbpp/1", corpus_id: "mbpp/1#c", rank: 2 },
    ]),
    "mbpp/1 Q0 mbpp/1#m0 1 999 bm25\nmbpp/1 Q0 mbpp/1#c 2 998 bm25\n",
  );
  throws(() => trecRun("bm25", [{ query_id: "a b", corpus_id: "c", rank: 1 }]), /whitespace/);
});

Deno.test("trecQrels: correct ids relevant, distractors judged non-relevant", () => {
  assertEquals(
    trecQrels([{ query_id: "q", correct_ids: ["q#c"], distractor_ids: ["q#m0", "q#m1"] }]),
    "q 0 q#c 1\nq 0 q#m0 0\nq 0 q#m1 0\n",
  );
});

Deno.test("beirFiles: corpus, queries and qrels in BEIR layout", () => {
  const files = beirFiles(
    [{ query_id: "q", query: "sum a list", correct_ids: ["q#c"] }],
    [
      {
        corpus_id: "q#c",
        task_id: "q",
        label: "correct",
        bug_type: null,
        code: "def f(x): return sum(x)",
      },
      {
        corpus_id: "q#m0",
        task_id: "q",
        label: "incorrect",
        bug_type: "off_by_one",
        code: "def f(x): return sum(x) + 1",
      },
    ],
  );
  assertEquals(Object.keys(files).sort(), ["corpus.jsonl", "qrels/test.tsv", "queries.jsonl"]);
  assertEquals(files["qrels/test.tsv"], "query-id\tcorpus-id\tscore\nq\tq#c\t1\n");
  assertEquals(JSON.parse(files["queries.jsonl"]), { _id: "q", text: "sum a list" });
  const second = JSON.parse(files["corpus.jsonl"].split("\n")[1]);
  assertEquals(second, {
    _id: "q#m0",
    title: "",
    text: "def f(x): return sum(x) + 1",
    metadata: { task_id: "q", label: "incorrect", bug_type: "off_by_one" },
  });
});
