import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { BundleError } from "./bundle_problem.ts";
import { readBundle } from "./read_bundle.ts";
import { brokenBundle, editJson, editLines, FIXTURE_BUNDLE } from "./_test_bundle.ts";

/** Expect readBundle to fail with a one-line message matching `pattern`. */
async function expectProblem(dir: string, pattern: RegExp): Promise<BundleError> {
  let caught: unknown;
  await rejects(readBundle(dir), (e) => {
    caught = e;
    return true;
  });
  ok(caught instanceof BundleError, `expected a BundleError, got ${caught}`);
  ok(!caught.message.includes("\n"), `message is not one line: ${caught.message}`);
  ok(pattern.test(caught.message), `message ${JSON.stringify(caught.message)} !~ ${pattern}`);
  await Deno.remove(dir, { recursive: true });
  return caught;
}

Deno.test("readBundle reads the fixture bundle whole", async () => {
  const b = await readBundle(FIXTURE_BUNDLE);
  assertEquals(b.queries.map((q) => q.query_id), [
    "q0001",
    "q0002",
    "q0003",
    "q0004",
    "q0005",
    "q0006",
  ]);
  assertEquals(b.corpus.size, 29);
  assertEquals(b.runs.map((r) => r.model), ["acme-embed-small", "bm25", "nimbus-code-v2"]);
  assertEquals(b.pairs.map((p) => p.key), [
    "acme-embed-small vs bm25",
    "acme-embed-small vs nimbus-code-v2",
    "bm25 vs nimbus-code-v2",
  ]);
  assertEquals(b.corpus.get("c0001")!.bug_type, null);
  assertEquals(b.corpus.get("c0002")!.bug_type, "wrong_comparison");
  assertEquals(b.runs[1].per_query[0].top_results.length, 10);
  assertEquals([...b.intervals.get("bm25")!.keys()].length, 16);
});

Deno.test("readBundle falls back to the folder under EXECRET_MIRROR", async () => {
  const mirror = await Deno.makeTempDir();
  await Deno.symlink(FIXTURE_BUNDLE, join(mirror, "execretrieval-release"));
  // Test files share one process: put back the mirror CI set for the others.
  const previous = Deno.env.get("EXECRET_MIRROR");
  Deno.env.set("EXECRET_MIRROR", mirror);
  try {
    const b = await readBundle("no/such/place/execretrieval-release");
    assertEquals(b.dir, join(mirror, "execretrieval-release"));
    await rejects(
      readBundle("nowhere-else"),
      /nowhere-else: no such bundle folder \(nor under EXECRET_MIRROR/,
    );
  } finally {
    if (previous === undefined) Deno.env.delete("EXECRET_MIRROR");
    else Deno.env.set("EXECRET_MIRROR", previous);
    await Deno.remove(mirror, { recursive: true });
  }
});

Deno.test("a missing file is named", async () => {
  const dir = await brokenBundle((d) => Deno.remove(join(d, "tests/confidence_intervals.json")));
  await expectProblem(dir, /tests\/confidence_intervals\.json: missing file$/);
});

Deno.test("a results file whose n_queries differs is named", async () => {
  const dir = await brokenBundle((d) =>
    editJson(join(d, "results/bm25.json"), (v) => {
      v.n_queries = 5;
    })
  );
  await expectProblem(
    dir,
    /results\/bm25\.json: n_queries is 5, queries\.jsonl has 6 queries(\s|$)/,
  );
});

Deno.test("a corpus id referenced but absent is named with the query's line", async () => {
  // c0013 is one of q0003's distractors; drop its corpus line.
  const dir = await brokenBundle((d) =>
    editLines(join(d, "data/corpus.jsonl"), (lines) => lines.filter((l) => !l.includes('"c0013"')))
  );
  const e = await expectProblem(
    dir,
    /data\/queries\.jsonl:3: query id q0003: corpus id c0013 is referenced but not in the corpus/,
  );
  // Every problem is listed, not only the first: the results files now disagree on the pool size.
  ok(
    e.problems.some((p) =>
      /results\/bm25\.json$/.test(p.locator) && /n_corpus is 29/.test(p.reason)
    ),
  );
});

Deno.test("duplicate corpus ids are named with both lines", async () => {
  const dir = await brokenBundle((d) =>
    editLines(join(d, "data/corpus.jsonl"), (lines) => [...lines, lines[1]])
  );
  await expectProblem(
    dir,
    /data\/corpus\.jsonl:30: duplicate corpus id c0002 \(first at .*corpus\.jsonl:2\)/,
  );
});

Deno.test("a malformed JSON line is named by file:line", async () => {
  const dir = await brokenBundle((d) =>
    editLines(join(d, "data/execution_cache.jsonl"), (lines) => {
      lines[6] = lines[6].slice(0, 40);
      return lines;
    })
  );
  await expectProblem(dir, /data\/execution_cache\.jsonl:7: malformed JSON/);
});

Deno.test("a malformed JSON file is named by file:line:column", async () => {
  const dir = await brokenBundle(async (d) => {
    const path = join(d, "tests/pairwise_tests.json");
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, text.replace('"b_only": 1,', '"b_only": 1,,'));
  });
  await expectProblem(dir, /tests\/pairwise_tests\.json:\d+:\d+: malformed JSON/);
});

Deno.test("a top result whose label contradicts the corpus is named by query and rank", async () => {
  const dir = await brokenBundle((d) =>
    editJson(join(d, "results/nimbus-code-v2.json"), (v) => {
      const top = (v.per_query as { top_results: { label: string }[] }[])[2].top_results;
      top[1].label = top[1].label === "correct" ? "incorrect" : "correct";
    })
  );
  await expectProblem(
    dir,
    /results\/nimbus-code-v2\.json: query id q0003, top_results\[1\]: corpus id c\d+ has label/,
  );
});

Deno.test("a missing pair and a stray interval model are named", async () => {
  const dir = await brokenBundle(async (d) => {
    await editJson(join(d, "tests/pairwise_tests.json"), (v) => {
      delete v["bm25 vs nimbus-code-v2"];
    });
    await editJson(join(d, "tests/confidence_intervals.json"), (v) => {
      v["ghost-model"] = v["bm25"];
    });
  });
  const e = await expectProblem(dir, /pairwise_tests\.json: pair "bm25 vs nimbus-code-v2" missing/);
  ok(e.problems.some((p) => p.reason === "model ghost-model has no results file"));
});

Deno.test("a byte-order mark and CRLF line ends are read like any other file", async () => {
  const dir = await brokenBundle(async (d) => {
    const results = join(d, "results/bm25.json");
    await Deno.writeTextFile(results, "\uFEFF" + await Deno.readTextFile(results));
    const corpus = join(d, "data/corpus.jsonl");
    await Deno.writeTextFile(corpus, (await Deno.readTextFile(corpus)).replaceAll("\n", "\r\n"));
  });
  try {
    const b = await readBundle(dir);
    assertEquals([b.corpus.size, b.runs.length], [29, 3]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
