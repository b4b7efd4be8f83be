import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { readTableRows, withNulls, writeTable } from "../io/arrow_table.ts";
import {
  BREAKDOWNS,
  CORPUS,
  METRICS,
  PAIRWISE,
  PER_QUERY,
  QUERIES,
  RANKINGS,
} from "../tables/schema.ts";
import { runScoreStage } from "./score_stage.ts";
import { runStatsStage } from "../stats/stats_stage.ts";
import { checkMetricsAgainstRankings } from "../stats/recompute.ts";
import { runExport } from "../results/run_export.ts";
import { fnv1a32, tieKey } from "./tie_break.ts";

/**
 * A hand-built benchmark: queries a, b, c over a 15-snippet pool. Config
 * "toy" uses one-hot query vectors and dot similarity, so document j's score
 * for query i is simply its vector's i-th component (all values exact in
 * float32). Config "toy2" ranks every canonical first.
 *
 *   query a: b#c .875 > a#m0 .75 > a#c .5 > a#m1 .25 > rest: a rank-1 miss to
 *            another task, canonical 3rd, below its off_by_one distractor
 *   query b: b#c 1 > b#m0 .5: a hit
 *   query c: nine-way tie at .5 (x1..x8, c#m0) > five at .25 > c#c .125:
 *            canonical absent from the top 10 (rank 15)
 */
const POOL: [
  id: string,
  task: string,
  label: string,
  bug: string | null,
  a: number,
  b: number,
  c: number,
][] = [
  ["a#c", "a", "correct", null, 0.5, 0.25, 0.25],
  ["a#m0", "a", "incorrect", "off_by_one", 0.75, 0, 0.25],
  ["a#m1", "a", "incorrect", "wrong_operator", 0.25, 0, 0.25],
  ["b#c", "b", "correct", null, 0.875, 1, 0.25],
  ["b#m0", "b", "incorrect", "swap_arguments", 0.0625, 0.5, 0.25],
  ["c#c", "c", "correct", null, 0.0625, 0, 0.125],
  ["c#m0", "c", "incorrect", "wrong_comparison", 0.0625, 0, 0.5],
  ...Array.from(
    { length: 8 },
    (_, i) =>
      [`x${i + 1}#c`, `x${i + 1}`, "correct", null, 0, 0, 0.5] as [
        string,
        string,
        string,
        null,
        number,
        number,
        number,
      ],
  ),
];
const QUERY_ROWS = [
  { id: "a", source: "s1", domain: "geometry", distractors: ["a#m0", "a#m1"] },
  { id: "b", source: "s1", domain: "validation", distractors: ["b#m0"] },
  { id: "c", source: "s2", domain: "geometry", distractors: ["c#m0"] },
];

async function writeFixture(out: string) {
  await writeTable(
    "queries",
    withNulls(
      QUERIES,
      QUERY_ROWS.map((q) => ({
        query_id: q.id,
        task_id: q.id,
        source: q.source,
        domain: q.domain,
        query: `query ${q.id}`,
        entry_point: "f",
        tests: [],
        correct_ids: [`${q.id}#c`],
        distractor_ids: q.distractors,
      })),
    ),
    QUERIES,
    { parquet: false },
  );
  await writeTable(
    "corpus",
    withNulls(
      CORPUS,
      POOL.map(([id, task, label, bug]) => ({
        corpus_id: id,
        task_id: task,
        source: "s1",
        domain: "geometry",
        label,
        bug_type: bug,
        code: `def f(): return "${id}"`,
      })),
    ),
    CORPUS,
    { parquet: false },
  );
  const spec = { id: "utf8", role: "utf8", vector: { fixedFloat32: 3 } } as const;
  const queries = QUERY_ROWS.map((q, i) => ({
    id: q.id,
    role: "query",
    vector: Float32Array.from([0, 1, 2], (j) => (j === i ? 1 : 0)),
  }));
  const meta = (config: string) => ({ config, similarity: "dot", dims: "3", normalized: "false" });
  await writeTable(
    "toy",
    withNulls(spec, [
      ...queries,
      ...POOL.map(([id, , , , a, b, c]) => ({
        id,
        role: "document",
        vector: Float32Array.from([a, b, c]),
      })),
    ]),
    spec,
    { path: join(out, "embeddings", "toy.arrow"), metadata: meta("toy"), parquet: false },
  );
  await writeTable(
    "toy2",
    withNulls(spec, [
      ...queries,
      ...POOL.map(([id, task]) => ({
        id,
        role: "document",
        vector: Float32Array.from(
          ["a", "b", "c"],
          (q) => (id === `${q}#c` ? 1 : task === q ? 0.5 : 0),
        ),
      })),
    ]),
    spec,
    { path: join(out, "embeddings", "toy2.arrow"), metadata: meta("toy2"), parquet: false },
  );
}

async function withOut(fn: (out: string) => Promise<void>) {
  const out = await Deno.makeTempDir({ prefix: "execret-score-" });
  const before = Deno.env.get("EXECRET_OUT");
  Deno.env.set("EXECRET_OUT", out);
  try {
    await writeFixture(out);
    await fn(out);
  } finally {
    if (before === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", before);
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test("score stage: rankings and per-query metrics match the hand computation", async () => {
  await withOut(async (out) => {
    await runScoreStage({ configs: ["toy", "toy2"], quiet: true, threads: 1 });
    const rk = await readTableRows(join(out, "tables", "rankings.arrow"), RANKINGS);
    const pq = await readTableRows(join(out, "tables", "per_query.arrow"), PER_QUERY);
    const v = (config: string, q: string, metric: string, k: number) => {
      const r = pq.filter((x) =>
        x.config === config && x.query_id === q && x.metric === metric && x.k === k
      );
      return r.length === 1 ? r[0].value : r.length === 0 ? undefined : NaN;
    };
    // query a
    assertEquals(
      rk.filter((r) => r.config === "toy" && r.query_id === "a").slice(0, 4).map((
        r,
      ) => [r.rank, r.corpus_id, r.score]),
      [[1, "b#c", 0.875], [2, "a#m0", 0.75], [3, "a#c", 0.5], [4, "a#m1", 0.25]],
    );
    assertEquals([1, 3, 5, 10].map((k) => v("toy", "a", "exec", k)), [0, 1, 1, 1]);
    assertEquals([1, 3, 5, 10].map((k) => v("toy", "a", "precision", k)), [
      0,
      1 / 3,
      1 / 5,
      1 / 10,
    ]);
    assertEquals([1, 3, 10].map((k) => v("toy", "a", "ndcg", k)), [0, 0.5, 0.5]); // 1/log2(4)
    assertEquals(v("toy", "a", "gap", 3), 0.5);
    assertEquals(v("toy", "a", "canonical_rank", 0), 3);
    assertEquals(v("toy", "a", "mrr", 0), 1 / 3);
    assertEquals([1, 3, 10].map((k) => v("toy", "a", "mrr", k)), [0, 1 / 3, 1 / 3]);
    assertEquals(v("toy", "a", "expected_exec", 1), 0);
    assertEquals(v("toy", "a", "miss_own_distractor", 1), 0); // b#c: another task's code
    assertEquals(v("toy", "a", "below_distractor", 0), 1);
    assertEquals(v("toy", "a", "margin", 0), -0.25);
    assertEquals(v("toy", "a", "outrank:off_by_one", 0), 1);
    assertEquals(v("toy", "a", "outrank:wrong_operator", 0), 0);
    // query b: a clean hit
    assertEquals([1, 10].map((k) => v("toy", "b", "exec", k)), [1, 1]);
    assertEquals(v("toy", "b", "ndcg", 1), 1);
    assertEquals(v("toy", "b", "miss_own_distractor", 1), undefined);
    assertEquals(v("toy", "b", "margin", 0), 0.5);
    assertEquals(v("toy", "b", "below_distractor", 0), 0);
    // query c: nine-way tie at the top, canonical at rank 15
    const c = rk.filter((r) => r.config === "toy" && r.query_id === "c");
    assertEquals(c.length, 11);
    assertEquals(c.slice(0, 10).every((r) => r.tie && r.in_top), true);
    assertEquals(c.slice(0, 9).every((r) => r.score === 0.5), true);
    assertEquals([c[10].corpus_id, c[10].rank, c[10].in_top, c[10].tie, c[10].score], [
      "c#c",
      15,
      false,
      false,
      0.125,
    ]);
    assertEquals([1, 3, 5, 10].map((k) => v("toy", "c", "exec", k)), [0, 0, 0, 0]);
    assertEquals(v("toy", "c", "top_tie", 1), 1);
    assertEquals(v("toy", "c", "expected_exec", 1), 0);
    assertEquals(v("toy", "c", "mrr", 0), 1 / 15);
    assertEquals(v("toy", "c", "mrr", 10), 0);
    assertEquals(v("toy", "c", "margin", 0), -0.375);
    // the documented tie-break: lowest tieKey(h(query), h(doc)) first among the tied nine
    const tied = [...POOL.filter((p) => p[6] === 0.5).map((p) => p[0])];
    const first = tied.sort((x, y) =>
      tieKey(fnv1a32("c"), fnv1a32(x)) - tieKey(fnv1a32("c"), fnv1a32(y))
    )[0];
    assertEquals(c[0].corpus_id, first);
    assertEquals(v("toy", "c", "miss_own_distractor", 1), first === "c#m0" ? 1 : 0);
    // toy2 ranks every canonical first
    assertEquals(["a", "b", "c"].map((q) => v("toy2", q, "exec", 1)), [1, 1, 1]);
  });
});

Deno.test("stats stage: metrics, McNemar, Holm, breakdowns; deterministic; consistent with rankings", async () => {
  await withOut(async (out) => {
    await runScoreStage({ configs: ["toy2", "toy"], quiet: true, threads: 1 });
    const rankings1 = await Deno.readFile(join(out, "tables", "rankings.arrow"));
    await runStatsStage({ bootstrap: 300, quiet: true });
    const bytes1 = await Deno.readFile(join(out, "tables", "pairwise.arrow"));
    const metrics1 = await Deno.readFile(join(out, "tables", "metrics.arrow"));
    const metrics = await readTableRows(join(out, "tables", "metrics.arrow"), METRICS);
    const m = (config: string, metric: string, k: number) =>
      metrics.find((r) => r.config === config && r.metric === metric && r.k === k)!;
    assertEquals(m("toy", "exec", 1).value, 1 / 3);
    assertEquals(m("toy", "exec", 1).n, 3);
    assertEquals(m("toy", "canonical_rank", 0).value, (3 + 1 + 15) / 3);
    assertEquals(m("toy", "below_distractor", 0).value, 2 / 3);
    assertEquals(m("toy2", "exec", 1).value, 1);
    ok(m("toy", "exec", 1).ci_low <= 1 / 3 && 1 / 3 <= m("toy", "exec", 1).ci_high);
    assertEquals([m("toy2", "exec", 1).ci_low, m("toy2", "exec", 1).ci_high], [1, 1]);
    const pw = await readTableRows(join(out, "tables", "pairwise.arrow"), PAIRWISE);
    const e1 = pw.find((r) => r.metric === "exec" && r.k === 1)!;
    assertEquals([e1.config_a, e1.config_b, e1.delta], ["toy", "toy2", 1 / 3 - 1]);
    assertEquals([e1.a_only, e1.b_only, e1.both, e1.neither], [0, 2, 1, 0]);
    assertEquals(e1.p_mcnemar, 0.5); // 2 · (1/2)^2
    assertEquals(e1.p_holm, 0.5); // one pair
    assertEquals(pw.find((r) => r.metric === "mrr")!.p_mcnemar, null);
    const bd = await readTableRows(join(out, "tables", "breakdowns.arrow"), BREAKDOWNS);
    const geo = bd.find((r) =>
      r.config === "toy" && r.group_by === "domain" && r.group === "geometry" &&
      r.metric === "canonical_rank"
    )!;
    assertEquals([geo.value, geo.n], [(3 + 15) / 2, 2]);
    const s2 = bd.find((r) =>
      r.config === "toy" && r.group_by === "source" && r.group === "s2" && r.metric === "exec" &&
      r.k === 10
    )!;
    assertEquals([s2.value, s2.n], [0, 1]);
    // recomputation from rankings agrees with metrics
    const check = await checkMetricsAgainstRankings();
    ok(check.checked >= 2 * 18, `checked ${check.checked}`);
    assertEquals(check.mismatches, []);
    // byte-identical reruns
    await runScoreStage({ configs: ["toy", "toy2"], quiet: true, threads: 2 });
    assertEquals(await Deno.readFile(join(out, "tables", "rankings.arrow")), rankings1);
    await runStatsStage({ bootstrap: 300, quiet: true });
    assertEquals(await Deno.readFile(join(out, "tables", "pairwise.arrow")), bytes1);
    assertEquals(await Deno.readFile(join(out, "tables", "metrics.arrow")), metrics1);
    // exports
    await runExport({ trec: true, beir: true });
    const run = await Deno.readTextFile(join(out, "export", "trec", "runs", "toy.txt"));
    ok(run.includes("a Q0 a#c 3 997 toy\n"));
    ok(!run.includes("c Q0 c#c ")); // below the top 10: not in the run
    const qrels = await Deno.readTextFile(join(out, "export", "trec", "qrels.txt"));
    ok(qrels.startsWith("a 0 a#c 1\na 0 a#m0 0\n"));
    const tsv = await Deno.readTextFile(join(out, "export", "beir", "qrels", "test.tsv"));
    assertEquals(tsv, "query-id\tcorpus-id\tscore\na\ta#c\t1\nb\tb#c\t1\nc\tc#c\t1\n");
    const corpus = (await Deno.readTextFile(join(out, "export", "beir", "corpus.jsonl"))).trim()
      .split("\n");
    assertEquals(corpus.length, POOL.length);
    assertEquals(JSON.parse(corpus[1])._id, "a#m0");
  });
});

Deno.test("score stage: an embedding file with a stray id fails naming the file and id", async () => {
  await withOut(async (out) => {
    const spec = { id: "utf8", role: "utf8", vector: { fixedFloat32: 3 } } as const;
    await writeTable(
      "bad",
      withNulls(spec, [{ id: "zzz", role: "document", vector: new Float32Array(3) }]),
      spec,
      {
        path: join(out, "embeddings", "bad.arrow"),
        metadata: { similarity: "cosine", dims: "3" },
        parquet: false,
      },
    );
    await rejects(
      runScoreStage({ configs: ["bad"], quiet: true }),
      (e: Error) => e.message.includes("bad.arrow") && e.message.includes("zzz"),
    );
  });
});
