/**
 * The pages say what the code computes: nDCG@k's only relevant snippet is the
 * query's correct one (so nDCG@1 = exec@1) and the gap is exec@k − nDCG@k.
 * The definitions are read from the pages and evaluated against the scoring
 * code that writes the per_query table, so a page that drifts from the code
 * fails here.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { evaluateQuery, poolContext } from "../../src/score/evaluate_query.ts";

const ROOT = new URL("../../", import.meta.url);

/** docs/*.md, README.md and REFERENCE.md, by path relative to the repository. */
function pages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const e of Deno.readDirSync(new URL("docs/", ROOT))) {
    if (e.isFile && e.name.endsWith(".md")) {
      found.set(`docs/${e.name}`, Deno.readTextFileSync(new URL(`docs/${e.name}`, ROOT)));
    }
  }
  for (const page of ["README.md", "REFERENCE.md"]) {
    found.set(page, Deno.readTextFileSync(new URL(page, ROOT)));
  }
  return found;
}

/** Sentences of a page, with line breaks and Markdown emphasis flattened. */
function sentences(text: string): string[] {
  return text.replace(/\*\*|_/g, "").replace(/\s+/g, " ").split(/(?<=[.;:])\s+/);
}

/** Every "gap… = A@k − B@k" / "the gap is A@k − B@k" on the page, as [A, B]. */
function gapDefinitions(text: string): [string, string][] {
  const flat = text.replace(/\*\*/g, "").replace(/\s+/g, " ");
  const re = /\bgap(?:@k)?\s+(?:is|=)\s+([A-Za-z]+)@k\s*[−–-]\s*([A-Za-z]+)@k/gi;
  return [...flat.matchAll(re)].map((m) => [m[1], m[2]]);
}

Deno.test("no page calls nDCG topical or defines the gap as nDCG − exec", () => {
  const problems: string[] = [];
  for (const [path, text] of pages()) {
    for (const s of sentences(text)) {
      if (/ndcg/i.test(s) && /topical/i.test(s)) problems.push(`${path}: "${s}"`);
      if (/ndcg(?:@k)?\s*[−–-]\s*exec/i.test(s)) problems.push(`${path}: "${s}"`);
    }
    for (const [a, b] of gapDefinitions(text)) {
      if (!(a === "exec" && /^ndcg$/i.test(b))) problems.push(`${path}: gap = ${a} − ${b}`);
    }
  }
  assertEquals(problems, []);
});

// One query whose pool holds its canonical, two buggy copies of it and another task's canonical.
const docs = [
  { corpus_id: "t#c", task_id: "t", label: "correct", bug_type: null, code: "" },
  { corpus_id: "t#m0", task_id: "t", label: "incorrect", bug_type: "off_by_one", code: "" },
  { corpus_id: "t#m1", task_id: "t", label: "incorrect", bug_type: "wrong_operator", code: "" },
  { corpus_id: "u#c", task_id: "u", label: "correct", bug_type: null, code: "" },
];
const query = {
  query_id: "t",
  task_id: "t",
  source: "builtin",
  domain: "geometry",
  query: "",
  correct_ids: ["t#c"],
  distractor_ids: ["t#m0", "t#m1"],
};

/** Per-query metrics the score stage writes when the pool scores as given. */
function metricsFor(scores: number[]): (metric: string, k: number) => number {
  const { perQuery } = evaluateQuery("x", query, Float32Array.from(scores), poolContext(docs), [
    1,
    3,
  ]);
  return (metric, k) => perQuery.find((r) => r.metric === metric && r.k === k)!.value;
}

Deno.test("the definitions in docs/methods.md and docs/leaderboard.md are what the code computes", () => {
  const methods = pages().get("docs/methods.md")!;
  const leaderboard = pages().get("docs/leaderboard.md")!;
  // Rank 1 is a buggy copy of the query's own task, the canonical is rank 2.
  const v = metricsFor([0.8, 0.9, 0.1, 0.2]);
  // A topical nDCG (own-task snippets relevant) would give nDCG@1 = 1 here; exec@1 is 0.
  assertEquals(v("exec", 1), 0);
  assertEquals(v("ndcg", 1), v("exec", 1));
  for (const [path, text] of [["docs/methods.md", methods], ["docs/leaderboard.md", leaderboard]]) {
    ok(/nDCG@1 = exec@1/.test(text.replace(/\s+/g, " ")), `${path} states nDCG@1 = exec@1`);
    const defs = gapDefinitions(text);
    assertEquals(defs.length, 1, `${path} defines the gap once`);
    // Evaluate the page's formula with the code's metrics at k = 3 and compare with the gap column.
    const [a, b] = defs[0].map((name) => name.toLowerCase());
    const stated = v(a, 3) - v(b, 3);
    ok(
      Math.abs(stated - v("gap", 3)) < 1e-12,
      `${path}: ${a} − ${b} = ${stated}, code ${v("gap", 3)}`,
    );
    ok(v("gap", 3) > 0, "the example separates exec − nDCG from nDCG − exec");
  }
});
