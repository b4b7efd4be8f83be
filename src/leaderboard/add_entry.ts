/**
 * `execret leaderboard add CONFIG`: a leaderboard entry made from a config
 * of the current run, the two files a contributor commits. The run file
 * holds each query's top ten and its own canonical and distractors at
 * their ranks, with the config's scores (float32, printed to round-trip),
 * so the kit's scoring of the entry gives the config's own numbers; the
 * metadata names the model, its invocation, the benchmark and its pool's
 * digest, and claims exec@1 and exec@10 as the run's metrics give them.
 *
 * @module
 */
import { join } from "node:path";
import { readTableRows } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { tablePath } from "../io/paths.ts";
import type { Invocation } from "../embed/invocation.ts";
import { readBenchmark } from "../score/benchmark.ts";
import { configScorer } from "../score/config_scorer.ts";
import { rankQuery } from "../score/rank_query.ts";
import { fnv1a32 } from "../score/tie_break.ts";
import { poolContext } from "../score/evaluate_query.ts";
import { METRICS } from "../tables/schema.ts";
import { MIN_DEPTH } from "./run_file.ts";
import { poolDigest } from "./pool_digest.ts";
import { ENTRY_NAME } from "./entries.ts";

/** What an entry is made of besides the run's scores. */
export interface AddOptions {
  config: string;
  invocation: Invocation;
  /** The run's benchmark (its profile's name). */
  benchmark: string;
  /** The entry's folder name (default: the config's). */
  name?: string;
  /** The leaderboard folder to write into. */
  root: string;
  revision: string;
  submittedBy: string;
  date: string;
  kitVersion: string;
}

/** A float32 score as text that reads back to the same float32. */
function scoreText(x: number): string {
  const f = Math.fround(x);
  for (let p = 6; p <= 9; p++) {
    const t = f.toPrecision(p);
    if (Math.fround(Number(t)) === f) return String(Number(t));
  }
  return String(f);
}

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Write the entry's run file and meta.json; their paths. */
export async function addEntry(options: AddOptions): Promise<{ run: string; meta: string }> {
  const name = options.name ?? options.config;
  if (!ENTRY_NAME.test(name)) {
    throw new Error(`entry name "${name}" must match [a-z0-9][a-z0-9._-]*`);
  }
  const bench = await readBenchmark();
  const ctx = poolContext(bench.corpus);
  const scorer = await configScorer(options.config, bench);
  const lines: string[] = [];
  const block = 64;
  for (let q0 = 0; q0 < bench.queries.length; q0 += block) {
    const q1 = Math.min(bench.queries.length, q0 + block);
    const rows = await scorer.rows(q0, q1);
    for (let qi = q0; qi < q1; qi++) {
      const q = bench.queries[qi];
      const scores = rows.subarray((qi - q0) * ctx.docs.length, (qi - q0 + 1) * ctx.docs.length);
      const ranking = rankQuery(scores, ctx.pool, fnv1a32(q.query_id), MIN_DEPTH);
      const top = ranking.top.slice(0, MIN_DEPTH);
      // Documents tied with the last of the ten are listed too: the kit
      // scores ties as ties, and a tie it cannot see is not one.
      const last = scores[top[top.length - 1]];
      const inTop = new Set(top);
      const tied = [];
      for (let d = 0; d < scores.length; d++) {
        if (scores[d] === last && !inTop.has(d)) tied.push({ d, rank: ranking.rankOf(d) });
      }
      top.push(...tied.sort((a, b) => a.rank - b.rank).map((t) => t.d));
      const listed = new Set(top);
      const own = [...q.correct_ids, ...(q.distractor_ids ?? [])]
        .map((id) => ctx.index.get(id)!)
        .filter((d) => !listed.has(d))
        .map((d) => ({ d, rank: ranking.rankOf(d) }))
        .sort((a, b) => a.rank - b.rank);
      top.forEach((d, i) =>
        lines.push(
          `${q.query_id} Q0 ${ctx.docs[d].corpus_id} ${i + 1} ${scoreText(scores[d])} ${name}`,
        )
      );
      for (const { d, rank } of own) {
        lines.push(
          `${q.query_id} Q0 ${ctx.docs[d].corpus_id} ${rank} ${scoreText(scores[d])} ${name}`,
        );
      }
    }
  }
  const metrics = await readTableRows(tablePath("metrics"), METRICS);
  const claim = (k: number) =>
    metrics.find((m) => m.config === options.config && m.metric === "exec" && m.k === k);
  const claims: Record<string, string> = {};
  for (const k of [1, 10]) {
    const m = claim(k);
    if (m) claims[`exec@${k}`] = m.value.toFixed(3);
  }
  const dir = join(options.root, options.benchmark, name);
  await Deno.mkdir(dir, { recursive: true });
  const runPath = join(dir, "run.trec.gz");
  await atomicWrite(runPath, await gzip(lines.join("\n") + "\n"));
  const meta = {
    model: options.invocation.model,
    revision: options.revision,
    invocation: options.invocation,
    submitted_by: options.submittedBy,
    date: options.date,
    kit_version: options.kitVersion,
    benchmark: options.benchmark,
    pool_digest: poolDigest(bench.queries, bench.corpus),
    run: "run.trec.gz",
    claims,
  };
  const metaPath = join(dir, "meta.json");
  await atomicWrite(metaPath, new TextEncoder().encode(JSON.stringify(meta, null, 2) + "\n"));
  return { run: runPath, meta: metaPath };
}
