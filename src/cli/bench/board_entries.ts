/**
 * Generated leaderboard entries for `execret bench leaderboard` and the tests: runs of
 * made-up models over a benchmark's pool, seeded, written in the format of
 * `leaderboard/<benchmark>/<name>/` (run.trec.gz + meta.json). Some models'
 * scores are rounded so that ties happen; some give each query's own
 * snippets below the top ten, some do not.
 */
import { join } from "node:path";
import { below, xoshiro128ss } from "../../common/rng.ts";
import type { Benchmark } from "../../score/benchmark.ts";
import { poolDigest } from "../../leaderboard/pool_digest.ts";

/** What a generated entry looks like. */
export interface GeneratedEntry {
  name: string;
  /** Scores rounded to this many decimals (ties), or null. */
  decimals: number | null;
  /** The query's own snippets are listed below the top ten. */
  own: boolean;
}

/** The invocation a generated model declares (an OpenAI-compatible server: not reachable in tests). */
export function generatedInvocation(name: string): Record<string, unknown> {
  return {
    name,
    provider: "openai",
    model: `gen/${name}`,
    base_url: "http://127.0.0.1:9/v1",
    key_env: "EXECRET_TEST_GENERATED_KEY",
    key_required: false,
    dims: 8,
    similarity: "cosine",
    normalize: false,
    query: {},
    document: {},
    doc: "https://example.org/generated",
  };
}

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Run lines of a model over `bench`: each document a seeded score, a little
 * higher for the query's own snippets (and a bit more for correct ones, in
 * some models), ranked by score then id; the top `depth` listed (and own
 * snippets below, when `own`).
 */
export function generatedRunLines(
  bench: Benchmark,
  spec: GeneratedEntry,
  seed: number,
  depth = 10,
): string[] {
  const next = xoshiro128ss(seed);
  const lift = 0.3 + below(next(), 100) / 200;
  const lines: string[] = [];
  for (const q of bench.queries) {
    const correct = new Set(q.correct_ids);
    const own = new Set([...q.correct_ids, ...(q.distractor_ids ?? [])]);
    const scored = bench.corpus.map((d) => {
      let s = next() / 4294967296;
      if (own.has(d.corpus_id)) s += lift;
      if (correct.has(d.corpus_id)) s += lift * (below(next(), 3) / 4);
      if (spec.decimals !== null) s = Number(s.toFixed(spec.decimals));
      return { id: d.corpus_id, s };
    }).sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1));
    scored.forEach((d, i) => {
      if (i < depth || (spec.own && own.has(d.id))) {
        lines.push(`${q.query_id} Q0 ${d.id} ${i + 1} ${d.s} ${spec.name}`);
      }
    });
  }
  return lines;
}

/** The meta.json of a generated entry. */
export function generatedMeta(
  bench: Benchmark,
  benchmark: string,
  name: string,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model: `gen/${name}`,
    revision: "1",
    invocation: generatedInvocation(name),
    submitted_by: "the kit's tests",
    date: "2026-12-07",
    kit_version: "test",
    benchmark,
    pool_digest: poolDigest(bench.queries, bench.corpus),
    run: "run.trec.gz",
    ...more,
  };
}

/** Write an entry's folder under `root/<benchmark>/<name>/`; its folder. */
export async function writeEntry(
  root: string,
  benchmark: string,
  name: string,
  run: string | Uint8Array,
  meta: Record<string, unknown>,
  runFile = "run.trec.gz",
): Promise<string> {
  const dir = join(root, benchmark, name);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeFile(join(dir, runFile), typeof run === "string" ? await gzip(run) : run);
  await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  return dir;
}

/** `count` generated entries of `bench`, every fourth with ties and every other with own snippets. */
export async function writeGeneratedEntries(
  root: string,
  benchmark: string,
  bench: Benchmark,
  count: number,
  seed = 20261207,
): Promise<GeneratedEntry[]> {
  const specs: GeneratedEntry[] = [];
  for (let i = 0; i < count; i++) {
    const spec = {
      name: `gen-${String(i).padStart(3, "0")}`,
      decimals: i % 4 === 3 ? 2 : null,
      own: i % 2 === 0,
    };
    const lines = generatedRunLines(bench, spec, seed + i);
    await writeEntry(
      root,
      benchmark,
      spec.name,
      lines.join("\n") + "\n",
      generatedMeta(bench, benchmark, spec.name),
    );
    specs.push(spec);
  }
  return specs;
}

export { gzip };
