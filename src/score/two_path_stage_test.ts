import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { withNulls, writeTable } from "../io/arrow_table.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { parquetDir, tablesDir } from "../io/paths.ts";
import { runScoreStage } from "./score_stage.ts";
import type { ScorePath } from "./score_matrix.ts";
import { xoshiro128ss } from "../common/rng.ts";

const DIMS = 300;

/**
 * 50 tasks, each a canonical and three distractors whose vectors differ from
 * it by ~1e-6 per component (true cosines closer than any float32 GEMM can
 * resolve), one of them an exact copy for every fifth task (a true tie), and
 * queries that mix their canonical with noise so canonicals sit at every rank.
 */
async function writeFixture(out: string) {
  const next = xoshiro128ss(11);
  const rnd = () => next() / 4294967296 - 0.5;
  const queries = [], vectors = [];
  const corpus: Record<string, string | null>[] = [];
  for (let t = 0; t < 50; t++) {
    const c = Array.from({ length: DIMS }, rnd);
    const doc = (id: string, label: string, bug: string | null, v: number[]) => {
      corpus.push({
        corpus_id: id,
        task_id: `t${t}`,
        source: "s1",
        domain: "d",
        label,
        bug_type: bug,
        code: `# ${id}`,
      });
      vectors.push({ id, role: "document", vector: Float32Array.from(v) });
    };
    doc(`t${t}#c`, "correct", null, c);
    const bugs = ["off_by_one", "wrong_operator", "swap_arguments"];
    for (const [i, b] of bugs.entries()) {
      doc(
        `t${t}#m${i}`,
        "incorrect",
        b,
        t % 5 === 0 && i === 0 ? c : c.map((x) => x + 1e-6 * rnd()),
      );
    }
    const mix = (t % 9) / 9;
    vectors.push({
      id: `q${t}`,
      role: "query",
      vector: Float32Array.from(c, (x) => (1 - mix) * x + mix * rnd()),
    });
    queries.push({
      query_id: `q${t}`,
      task_id: `t${t}`,
      source: t % 2 ? "s1" : "s2",
      domain: "d",
      query: `query ${t}`,
      entry_point: "f",
      tests: [],
      correct_ids: [`t${t}#c`],
      distractor_ids: bugs.map((_, i) => `t${t}#m${i}`),
    });
  }
  await writeTable("queries", withNulls(QUERIES, queries), QUERIES, { parquet: false });
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS, { parquet: false });
  await writeTable(
    "near",
    withNulls({ id: "utf8", role: "utf8", vector: { fixedFloat32: DIMS } }, vectors),
    { id: "utf8", role: "utf8", vector: { fixedFloat32: DIMS } },
    {
      path: join(out, "embeddings", "near.arrow"),
      metadata: { config: "near", similarity: "cosine", dims: String(DIMS), normalized: "false" },
      parquet: false,
    },
  );
}

async function tableBytes(): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (
    const [dir, names] of [
      [tablesDir(), ["rankings.arrow", "per_query.arrow"]],
      [parquetDir(), ["rankings.parquet", "per_query.parquet"]],
    ] as const
  ) {
    for (const n of names) files[n] = await Deno.readFile(join(dir, n));
  }
  return files;
}

Deno.test("score stage: tables are byte-identical with and without the native GEMM path", async () => {
  const out = await Deno.makeTempDir({ prefix: "execret-two-path-" });
  const before = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", out);
  try {
    await writeFixture(out);
    const run = async (path: ScorePath) => {
      const r = await runScoreStage({ configs: ["near"], quiet: true, threads: 2, path });
      assertEquals(r.configs.map((c) => c.path), [path]);
      return await tableBytes();
    };
    const wasm = await run("wasm");
    const twoPath = await run("two-path");
    ok(wasm["rankings.arrow"].length > 1000);
    assertEquals(Object.keys(twoPath), Object.keys(wasm));
    for (const name of Object.keys(wasm)) assertEquals(twoPath[name], wasm[name], name);
  } finally {
    if (before === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", before);
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("score stage: tables are byte-identical scored in blocks of queries", async () => {
  const out = await Deno.makeTempDir({ prefix: "execret-blocks-" });
  const before = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", out);
  try {
    await writeFixture(out);
    const configs = ["bm25", "near", "tfidf"];
    const run = async (path: ScorePath, blockRows?: number) => {
      const r = await runScoreStage({ configs, quiet: true, threads: 2, path, blockRows });
      assertEquals(r.configs.map((c) => c.path), [undefined, path, undefined]);
      return await tableBytes();
    };
    const whole = await run("wasm");
    ok(whole["per_query.arrow"].length > 1000);
    // 50 queries: blocks of 7 leave a last block of 1; two-path's rescore plan
    // is shifted by each block's first query.
    for (const [path, rows] of [["wasm", 7], ["two-path", 7], ["two-path", 1]] as const) {
      const blocks = await run(path, rows);
      for (const name of Object.keys(whole)) {
        assertEquals(blocks[name], whole[name], `${name}, ${path}, blocks of ${rows}`);
      }
    }
  } finally {
    if (before === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", before);
    await Deno.remove(out, { recursive: true });
  }
});
