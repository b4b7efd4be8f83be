import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { BundleError } from "./bundle_problem.ts";
import { readBundle } from "./read_bundle.ts";
import {
  brokenBundle,
  editLines,
  editTop,
  FIXTURE_BUNDLE,
} from "../../test/support/fixture_bundle.ts";

/** Expect readBundle to refuse with a one-line message matching `pattern`. */
async function expectRefusal(dir: string, pattern: RegExp): Promise<BundleError> {
  let caught: unknown;
  await rejects(readBundle(dir), (e) => {
    caught = e;
    return true;
  });
  await Deno.remove(dir, { recursive: true });
  ok(caught instanceof BundleError, `expected a BundleError, got ${caught}`);
  ok(!caught.message.includes("\n"), `message is not one line: ${caught.message}`);
  ok(pattern.test(caught.message), `message ${JSON.stringify(caught.message)} !~ ${pattern}`);
  return caught;
}

Deno.test("readBundle reads the fixture bundle whole", async () => {
  const b = await readBundle(FIXTURE_BUNDLE);
  assertEquals(b.queries.length, 24);
  assertEquals(b.queries[0].query_id, "q_0001");
  assertEquals(b.corpus.size, 119);
  assertEquals(b.cache.size, 119);
  assertEquals(b.runs.map((r) => r.model), [
    "BM25",
    "acme/embed-small",
    "nimbus/code-v2",
    "sentence-transformers/dotty-base-dot-v1",
  ]);
  assertEquals(b.pairs.length, 6);
  assertEquals([...b.intervals.get("BM25")!.keys()].length, 12);
  assertEquals(b.runs[0].per_query[0].top_results.length, 10);
  assertEquals([...b.embeddings.keys()].sort(), [
    "acme/embed-small",
    "nimbus/code-v2",
    "sentence-transformers/dotty-base-dot-v1",
  ]);
  // Only the documented empty lists are noticed in the committed fixture.
  ok(b.findings.length > 0 && b.findings.every((f) => f.kind === "not_in_cache" && f.documented));
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

Deno.test("findings are counted per file, place and kind, with the first occurrence", async () => {
  const b = await readBundle(FIXTURE_BUNDLE);
  const bm25 = b.findings.find((f) => f.file === "results/BM25.json")!;
  const file = JSON.parse(await Deno.readTextFile(join(FIXTURE_BUNDLE, "results/BM25.json")));
  const empty = (file.per_query as { query_id: string; top_results: { test_results: [] }[] }[])
    .flatMap((pq) =>
      pq.top_results.flatMap((r, i) =>
        r.test_results.length ? [] : [`${pq.query_id} rank ${i + 1}`]
      )
    );
  assertEquals(bm25.count, empty.length);
  ok(bm25.example.startsWith(empty[0] + " ("), bm25.example);
});

Deno.test("a malformed JSON file is refused by file:line:column", async () => {
  const dir = await brokenBundle(async (d) => {
    const path = join(d, "tests/pairwise_tests.json");
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(path, text.replace(/"b_only": (\d+),/, '"b_only": $1,,'));
  });
  await expectRefusal(dir, /tests\/pairwise_tests\.json:\d+:\d+: malformed JSON/);
});

Deno.test("a malformed corpus line is refused by file:line", async () => {
  const dir = await brokenBundle((d) =>
    editLines(join(d, "data/corpus.jsonl"), (lines) => {
      lines[6] = lines[6].slice(0, 40);
      return lines;
    })
  );
  await expectRefusal(dir, /data\/corpus\.jsonl:7: malformed JSON/);
});

Deno.test("every refusal is listed, not only the first", async () => {
  const dir = await brokenBundle((d) =>
    editTop(join(d, "results/BM25.json"), (top) => {
      top[0][0].corpus_id = "c_9998";
      top[1][0].corpus_id = "c_9999";
    })
  );
  const e = await expectRefusal(
    dir,
    /corpus id c_9998 is not in the corpus \(and 1 more problems\)/,
  );
  ok(e.problems.some((p) => p.reason.includes("c_9999")));
});

Deno.test("a byte-order mark and CRLF line ends are read like any other file", async () => {
  const dir = await brokenBundle(async (d) => {
    const results = join(d, "results/BM25.json");
    await Deno.writeTextFile(results, "\uFEFF" + await Deno.readTextFile(results));
    const corpus = join(d, "data/corpus.jsonl");
    await Deno.writeTextFile(corpus, (await Deno.readTextFile(corpus)).replaceAll("\n", "\r\n"));
  });
  try {
    const b = await readBundle(dir);
    assertEquals([b.corpus.size, b.runs.length], [119, 4]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
