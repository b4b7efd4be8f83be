import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { readTable } from "../io/arrow_table.ts";
import { readEmbeddingVectors } from "../score/embedding_vectors.ts";
import { summarizeEmbeddingFile } from "./embedding_file.ts";
import { summaryEntryFor, writeReleaseEmbedding } from "./release_embeddings.ts";
import { numpyAvailable, runPython } from "../../test/support/npz_fixture.ts";

const HAS_NUMPY = await numpyAvailable();

// numpy writes a float64 matrix pair with shuffled ids (compressed), its
// embedding_summary entry and the file's SHA-256, all computed in Python.
const WRITE_RELEASE = `
import hashlib, json, numpy as np
rng = np.random.default_rng(11)
qids = [f"q{i:04d}" for i in range(6)]; cids = [f"c{i:04d}" for i in range(9)]
Q = rng.standard_normal((6, 8)); D = rng.standard_normal((9, 8)); D[4] = 0
pq = rng.permutation(6); pc = rng.permutation(9)
np.savez_compressed("dot-model.npz", query_embeddings=Q[pq], corpus_embeddings=D[pc],
                    query_ids=np.array(qids)[pq], corpus_ids=np.array(cids)[pc])
def describe(m):
  return {"shape": list(m.shape), "finite": int(np.isfinite(m).sum()),
          "zero_norm": int((np.linalg.norm(m, axis=1) == 0).sum())}
summary = {"org/dot-model": {"queries": describe(Q), "corpus": describe(D)}}
json.dump(summary, open("embedding_summary.json", "w"))
json.dump({"q": Q.astype("<f4").ravel().tolist(), "c": D.astype("<f4").ravel().tolist(),
           "qids": qids, "cids": cids,
           "sha256": hashlib.sha256(open("dot-model.npz", "rb").read()).hexdigest()},
          open("want.json", "w"))
`;

Deno.test({
  name: "writeReleaseEmbedding writes an embedding file the score stage reads in benchmark order",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await runPython(WRITE_RELEASE, dir);
      const want = JSON.parse(await Deno.readTextFile(join(dir, "want.json")));
      const summary = JSON.parse(await Deno.readTextFile(join(dir, "embedding_summary.json")));
      const npzPath = join(dir, "dot-model.npz");
      const kitIds = (want.qids as string[]).map((id) => `release/${id}`);
      const options = {
        npzPath,
        outPath: join(dir, "out", "dot-model.arrow"),
        config: "dot-model",
        model: "org/dot-model",
        similarity: "dot" as const,
        queryIds: want.qids,
        corpusIds: want.cids,
        queryRowIds: kitIds,
        summary: summaryEntryFor(summary, "org/dot-model", npzPath),
      };
      const result = await writeReleaseEmbedding(options);
      assertEquals([result.sha256, result.dims, result.queries, result.documents], [
        want.sha256,
        8,
        6,
        9,
      ]);
      // The score stage's reader finds every vector under the kit's ids.
      const v = await readEmbeddingVectors(options.outPath, kitIds, want.cids);
      assertEquals(Array.from(v.queries.data), want.q);
      assertEquals(Array.from(v.docs.data), want.c);
      assertEquals(v.similarity, "dot");
      assertEquals(v.metadata.source_file, "dot-model.npz");
      assertEquals(v.metadata.source_sha256, want.sha256);
      assertEquals(v.metadata.provider, "release");
      assertEquals(v.metadata.model, "org/dot-model");
      assertEquals(v.metadata.dims, "8");
      assertEquals(JSON.parse(v.metadata.source_arrays).corpusIds, "corpus_ids");
      ok(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(v.metadata.created_at));
      const health = await summarizeEmbeddingFile(options.outPath);
      assertEquals([health.problems, health.queries, health.documents, health.zeroNorm], [
        [],
        6,
        9,
        1,
      ]);
      // Rows: queries first, then the corpus, in benchmark order.
      const table = await readTable(options.outPath);
      assertEquals(table.getChild("id")!.toArray().slice(0, 7), [...kitIds, "c0000"]);
      // A rerun gives the same bytes.
      const first = await Deno.readFile(options.outPath);
      await writeReleaseEmbedding({ ...options, outPath: join(dir, "again.arrow") });
      assertEquals(await Deno.readFile(join(dir, "again.arrow")), first);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "writeReleaseEmbedding stops on a summary mismatch naming the file and array, writing nothing",
  ignore: !HAS_NUMPY,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await runPython(WRITE_RELEASE, dir);
      const want = JSON.parse(await Deno.readTextFile(join(dir, "want.json")));
      const summary = JSON.parse(await Deno.readTextFile(join(dir, "embedding_summary.json")));
      summary["org/dot-model"].corpus.zero_norm = 0;
      const npzPath = join(dir, "dot-model.npz");
      const outPath = join(dir, "out.arrow");
      await rejects(
        writeReleaseEmbedding({
          npzPath,
          outPath,
          config: "dot-model",
          model: "org/dot-model",
          similarity: "cosine",
          queryIds: want.qids,
          corpusIds: want.cids,
          summary: summaryEntryFor(summary, "org/dot-model", npzPath),
        }),
        (e: Error) => {
          assertEquals(
            e.message,
            `${npzPath}: array corpus_embeddings has zero_norm 1, embedding_summary says 0`,
          );
          return true;
        },
      );
      await rejects(Deno.stat(outPath), Deno.errors.NotFound);
      // An id the benchmark does not have (one query fewer) is named too.
      await rejects(
        writeReleaseEmbedding({
          npzPath,
          outPath,
          config: "dot-model",
          model: "org/dot-model",
          similarity: "cosine",
          queryIds: want.qids.slice(0, 5),
          corpusIds: want.cids,
        }),
        /: no float matrix for the queries .*arrays: query_embeddings <f8 \(6, 8\)/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("summaryEntryFor finds an entry by model, file name or stem", () => {
  const entry = { queries: { shape: [1, 2] } };
  assertEquals(summaryEntryFor({ "org/m": entry }, "org/m", "x/embeddings/m.npz"), entry);
  assertEquals(summaryEntryFor({ "m.npz": entry }, "org/m", "x/embeddings/m.npz"), entry);
  assertEquals(summaryEntryFor({ models: { m: entry } }, "org/m", "x/m.npz"), entry);
  assertEquals(summaryEntryFor({ other: entry }, "org/m", "x/m.npz"), undefined);
});
