import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseFlags, positiveInt, printJson, UserError } from "../cli/command.ts";
import { pick, readTableRows, writeTable } from "../io/arrow_table.ts";
import { embeddingsDir, outDir, tablePath } from "../io/paths.ts";
import { CORPUS, QUERIES } from "../tables/schema.ts";
import { invocationFor } from "../embed/invocations.ts";
import { isSparse, providerFor } from "../embed/registry.ts";
import { runEmbedStage } from "../embed/stage.ts";
import { readEmbeddingFile } from "../embed/embedding_file.ts";

/** Edits that make near-identical copies, like the benchmark's single-edit distractors. */
const EDITS: [RegExp, string][] = [[/</, "<="], [/\+/, "-"], [/==/, "!="], [/\b1\b/, "2"]];

/**
 * A benchmark-sized stand-in when the oracle stage has not run: MBPP task
 * texts as queries and, per task, the solution plus up to 4 single-edit
 * copies, repeated until `docs` snippets (default ~1,200 × ~6,000 like the
 * default benchmark).
 */
async function syntheticTables(dir: string, nQueries: number, nDocs: number): Promise<string> {
  const mirror = Deno.env.get("EXECRET_MIRROR");
  if (!mirror) throw new UserError("no out/tables/queries.arrow and EXECRET_MIRROR is not set");
  const path = join(mirror, "mbpp.jsonl");
  const rows = (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { task_id: number; text: string; code: string });
  // Every text distinct, as in the real benchmark (distractors differ from their
  // canonical by construction), so the cache's deduplication does not flatter the figure.
  const seen = new Set<string>();
  const distinct = (text: string, mark: (n: number) => string) => {
    let out = text;
    for (let n = 1; seen.has(out); n++) out = text + mark(n);
    seen.add(out);
    return out;
  };
  const queries = [];
  const corpus: { corpus_id: string; task_id: string; code: string }[] = [];
  for (let i = 0; queries.length < nQueries; i++) {
    const r = rows[i % rows.length];
    const id = `mbpp/${r.task_id}/${Math.floor(i / rows.length)}`;
    queries.push({ query_id: id, task_id: id, query: distinct(r.text, (n) => ` (copy ${n})`) });
    const variants = [r.code, ...EDITS.map(([re, to]) => r.code.replace(re, to))];
    for (const [k, code] of variants.entries()) {
      if (corpus.length >= nDocs) break;
      corpus.push({
        corpus_id: `${id}#${k}`,
        task_id: id,
        code: distinct(code, (n) => `\n# copy ${n}`),
      });
    }
  }
  for (let i = 0; corpus.length < nDocs; i++) {
    const c = corpus[i];
    corpus.push({
      ...c,
      corpus_id: `${c.corpus_id}+${i}`,
      code: distinct(c.code, (n) => `\n# copy ${n}`),
    });
  }
  Deno.env.set("EXECRET_OUT", dir);
  await writeTable("queries", queries, QUERIES, { parquet: false });
  await writeTable("corpus", corpus, CORPUS, { parquet: false });
  return `synthetic from ${path} (${queries.length} queries × ${corpus.length} snippets)`;
}

/**
 * `execret bench embed [--config NAME]... [--queries N] [--docs N] [--workers N] [--texts N] [--parallel] [--fast-path] [--json]`:
 * time embedding the benchmark's queries and pool with each config (default
 * bm25, tfidf, use). Sparse configs are timed over indexing plus scoring all
 * query × snippet pairs; dense ones through the embed stage with a cold vector
 * cache, then again warm (all cache hits). Uses out/tables/{queries,corpus}
 * when present, else a synthetic set of the same size from MBPP. With `use`
 * among the configs it also compares `use` in 1 and in N worker processes
 * (`--workers N`, default the number of cores) on `--texts N` code texts (default
 * 300; see {@link benchUseWorkers}), and `use` through the package's own
 * tokenizer and Slice kernels with the kit's faster ones, in this process, on
 * `--texts N` texts (see {@link benchUseFastPath}); `--parallel` and
 * `--fast-path` run one of those comparisons alone.
 */
export async function benchEmbed(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    config: { type: "string", multiple: true },
    queries: { type: "string" },
    docs: { type: "string" },
    workers: { type: "string" },
    texts: { type: "string" },
    parallel: { type: "boolean" },
    "fast-path": { type: "boolean" },
  });
  const workers = positiveInt("workers", values.workers, navigator.hardwareConcurrency ?? 1);
  const nTexts = positiveInt("texts", values.texts, 300);
  if (values["fast-path"]) {
    const report = await benchUseFastPath(nTexts);
    if (values.json) printJson({ bench: "embed", results: [report] });
    else printUseFastPath(report);
    return 0;
  }
  if (values.parallel) {
    const report = await benchUseWorkers(nTexts, workers);
    if (values.json) printJson({ bench: "embed", results: [report] });
    else printUseWorkers(report);
    return 0;
  }
  const configs = (values.config ?? ["bm25,tfidf,use"]).flatMap((c) => c.split(","));
  const savedOut = Deno.env.get("EXECRET_OUT");
  const savedCache = Deno.env.get("EXECRET_CACHE");
  const tmp = await Deno.makeTempDir({ prefix: "execret-bench-embed-" });
  try {
    let from: string;
    if (existsSync(tablePath("queries")) && existsSync(tablePath("corpus"))) {
      from = `${tablePath("queries")} + ${tablePath("corpus")}`;
      // Write embedding files to the temp folder, not over the run's own.
      const q = await readTableRows(tablePath("queries"), QUERIES);
      const c = await readTableRows(tablePath("corpus"), CORPUS);
      Deno.env.set("EXECRET_OUT", tmp);
      await writeTable("queries", q, QUERIES, { parquet: false });
      await writeTable("corpus", c, CORPUS, { parquet: false });
    } else {
      from = await syntheticTables(
        tmp,
        positiveInt("queries", values.queries, 1200),
        positiveInt("docs", values.docs, 6000),
      );
    }
    Deno.env.set("EXECRET_CACHE", join(tmp, "cache"));
    const queries = (await readTableRows(tablePath("queries"), pick(QUERIES, "query")))
      .map((r) => r.query);
    const docs = (await readTableRows(tablePath("corpus"), pick(CORPUS, "code"))).map((r) =>
      r.code
    );
    const results = [];
    for (const name of configs) {
      const inv = await invocationFor(name);
      if (isSparse(inv)) {
        const p = await providerFor(inv);
        if (p.kind !== "sparse") throw new Error(`${name}: expected a sparse provider`);
        const t0 = performance.now();
        const scores = await p.score(queries, docs);
        const secs = (performance.now() - t0) / 1000;
        results.push({
          config: name,
          kind: "sparse",
          queries: queries.length,
          docs: docs.length,
          pairs: scores.length,
          seconds: secs,
          note: "index + score every query × snippet pair",
        });
      } else {
        const t0 = performance.now();
        const cold = await runEmbedStage({ configs: [name] });
        const coldSecs = (performance.now() - t0) / 1000;
        const t1 = performance.now();
        await runEmbedStage({ configs: [name], quiet: true });
        const warmSecs = (performance.now() - t1) / 1000;
        const r = cold.configs[0];
        results.push({
          config: name,
          kind: "dense",
          queries: queries.length,
          docs: docs.length,
          embedded: r.embedded,
          seconds: coldSecs,
          texts_per_second: (r.embedded ?? 0) / coldSecs,
          ms_per_text: 1000 * coldSecs / Math.max(1, r.embedded ?? 0),
          warm_seconds: warmSecs,
          note: "embed stage, cold cache (model load included); warm = rerun from cache",
        });
      }
    }
    const parallel = configs.includes("use") ? await benchUseWorkers(nTexts, workers) : undefined;
    const fastPath = configs.includes("use") ? await benchUseFastPath(nTexts) : undefined;
    const report = {
      bench: "embed",
      from,
      out: outDir(),
      results,
      use_workers: parallel,
      use_fast_path: fastPath,
    };
    if (values.json) printJson(report);
    else {
      console.log(`bench embed — ${from}`);
      for (const r of results) {
        if (r.kind === "sparse") {
          console.log(
            `  ${r.config}: ${r.seconds.toFixed(2)} s for ${r.queries} × ${r.docs} scores`,
          );
        } else {
          console.log(
            `  ${r.config}: ${r.seconds.toFixed(1)} s for ${r.embedded} texts (${
              r.texts_per_second!.toFixed(1)
            } texts/s, ${r.ms_per_text!.toFixed(1)} ms/text); warm rerun ${
              r.warm_seconds!.toFixed(2)
            } s`,
          );
        }
      }
      if (parallel) printUseWorkers(parallel);
      if (fastPath) printUseFastPath(fastPath);
    }
    return 0;
  } finally {
    if (savedOut === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", savedOut);
    if (savedCache === undefined) Deno.env.delete("EXECRET_CACHE");
    else Deno.env.set("EXECRET_CACHE", savedCache);
    await Deno.remove(tmp, { recursive: true });
  }
}

/** What {@link benchUseWorkers} measured. */
export interface UseWorkersReport {
  config: "use";
  from: string;
  texts: number;
  batches: number;
  workers: number;
  one_worker_seconds: number;
  n_workers_seconds: number;
  one_worker_texts_per_second: number;
  n_workers_texts_per_second: number;
  /** Throughput with N workers over throughput with one. */
  speedup: number;
  /**
   * CPU seconds (this process and its finished children) of each run: on a
   * machine shared with other work the wall-clock ratio moves with their
   * load, while these show what N workers cost in extra model loads.
   */
  one_worker_cpu_seconds: number;
  n_workers_cpu_seconds: number;
  /** Every vector of the N-worker file equals the one-worker file's, bit for bit. */
  identical: boolean;
  cores: number;
  note: string;
}

/**
 * Embed `n` distinct code texts with `use` through the embed stage twice, cold
 * each time: in this process (1 worker) and in `workers` worker processes, and
 * report texts/s of each and their ratio. The texts are pool snippets of the
 * run's corpus (out/tables/corpus.arrow, spread over its length order) when
 * present, else the built-in tasks' canonicals and single-edit copies of them.
 * Model loading counts in both timings (one load in-process, one per worker).
 */
export async function benchUseWorkers(n: number, workers: number): Promise<UseWorkersReport> {
  const { texts, from } = await benchTexts(n);
  const savedOut = Deno.env.get("EXECRET_OUT");
  const savedCache = Deno.env.get("EXECRET_CACHE");
  const tmp = await Deno.makeTempDir({ prefix: "execret-bench-use-workers-" });
  try {
    Deno.env.set("EXECRET_OUT", tmp);
    await writeTable("queries", [], QUERIES, { parquet: false });
    await writeTable(
      "corpus",
      texts.map((code, i) => ({ corpus_id: `b${i}`, task_id: `b${i}`, code })),
      CORPUS,
      { parquet: false },
    );
    const run = async (count: number, name: string) => {
      Deno.env.set("EXECRET_CACHE", join(tmp, `cache-${name}`));
      const t0 = performance.now();
      const cpu0 = cpuSeconds();
      const r = await runEmbedStage({ configs: ["use"], quiet: true, workers: count });
      const seconds = (performance.now() - t0) / 1000;
      const cpu = cpuSeconds() - cpu0;
      const file = await readEmbeddingFile(join(embeddingsDir(), "use.arrow"));
      return {
        seconds,
        cpu,
        embedded: r.configs[0].embedded ?? 0,
        used: r.configs[0].workers,
        file,
      };
    };
    const one = await run(1, "1");
    const many = await run(workers, "n");
    const inv = await invocationFor("use");
    const batch = (inv.batch_size ?? 32) * (inv.concurrency ?? 1);
    const bytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    const [a, b] = [bytes(one.file.values), bytes(many.file.values)];
    const identical = one.file.ids.join("\n") === many.file.ids.join("\n") &&
      a.length === b.length && a.every((x, i) => x === b[i]);
    return {
      config: "use",
      from,
      texts: one.embedded,
      batches: Math.ceil(one.embedded / batch),
      workers: many.used ?? workers,
      one_worker_seconds: one.seconds,
      n_workers_seconds: many.seconds,
      one_worker_texts_per_second: one.embedded / one.seconds,
      n_workers_texts_per_second: many.embedded / many.seconds,
      speedup: one.seconds / many.seconds,
      one_worker_cpu_seconds: one.cpu,
      n_workers_cpu_seconds: many.cpu,
      identical,
      cores: navigator.hardwareConcurrency ?? 1,
      note: "embed stage, cold cache, model load included (once in-process; once per worker)",
    };
  } finally {
    if (savedOut === undefined) Deno.env.delete("EXECRET_OUT");
    else Deno.env.set("EXECRET_OUT", savedOut);
    if (savedCache === undefined) Deno.env.delete("EXECRET_CACHE");
    else Deno.env.set("EXECRET_CACHE", savedCache);
    await Deno.remove(tmp, { recursive: true });
  }
}

/** What {@link benchUseFastPath} measured (the best of its rounds for each path). */
export interface UseFastPathReport {
  config: "use";
  from: string;
  texts: number;
  batches: number;
  rounds: number;
  library_seconds: number;
  fast_seconds: number;
  library_cpu_seconds: number;
  fast_cpu_seconds: number;
  /** Library CPU seconds over fast-path CPU seconds. */
  cpu_speedup: number;
  /** Every vector of every fast round equals the library's, bit for bit. */
  identical: boolean;
  note: string;
}

/**
 * Embed `n` texts (as {@link benchUseWorkers} picks them) with one loaded
 * `use` model, in length order and batches of the config's size like the
 * stage, alternating the package's own path and the fast one
 * (use_fast_path.ts) `rounds` times, and report the best wall and CPU seconds
 * of each and whether the vectors agree to the bit. Model loading is not
 * timed.
 */
export async function benchUseFastPath(n: number, rounds = 2): Promise<UseFastPathReport> {
  const { texts, from } = await benchTexts(n);
  texts.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const inv = await invocationFor("use");
  const size = inv.batch_size ?? 32;
  const [{ initUseModel }, { speedUpUseModel, usePackageKernels }] = await Promise.all([
    import("../embed/providers/use.ts"),
    import("../embed/use_fast_path.ts"),
  ]);
  const model = await initUseModel();
  const embedAll = async () => {
    const t0 = performance.now();
    const cpu0 = cpuSeconds();
    const out: number[][] = [];
    for (let s = 0; s < texts.length; s += size) {
      out.push(...await model.embed(texts.slice(s, s + size)));
    }
    const bits = new Uint32Array(Float32Array.from(out.flat()).buffer);
    return { seconds: (performance.now() - t0) / 1000, cpu: cpuSeconds() - cpu0, bits };
  };
  const library = [];
  const fast = [];
  for (let r = 0; r < rounds; r++) {
    // The kit's kernels are global: another model of this process (the
    // `use` bench before this one) may have put them in place.
    const back = usePackageKernels();
    try {
      library.push(await embedAll());
    } finally {
      back();
    }
    const restore = speedUpUseModel(model);
    try {
      fast.push(await embedAll());
    } finally {
      restore();
    }
  }
  const ref = library[0].bits;
  const identical = [...library, ...fast].every((run) =>
    run.bits.length === ref.length && run.bits.every((b, i) => b === ref[i])
  );
  const best = (runs: { seconds: number; cpu: number }[], key: "seconds" | "cpu") =>
    Math.min(...runs.map((r) => r[key]));
  return {
    config: "use",
    from,
    texts: texts.length,
    batches: Math.ceil(texts.length / size),
    rounds,
    library_seconds: best(library, "seconds"),
    fast_seconds: best(fast, "seconds"),
    library_cpu_seconds: best(library, "cpu"),
    fast_cpu_seconds: best(fast, "cpu"),
    cpu_speedup: best(library, "cpu") / Math.max(0.01, best(fast, "cpu")),
    identical,
    note: "one process, model loaded once; package's own path vs use_fast_path.ts, alternating",
  };
}

function printUseFastPath(r: UseFastPathReport): void {
  console.log(
    `  use fast path — ${r.texts} texts (${r.batches} batches) from ${r.from}, best of ${r.rounds}:`,
  );
  console.log(
    `    package's path: ${r.library_seconds.toFixed(1)} s, CPU ${
      r.library_cpu_seconds.toFixed(1)
    } s; fast path: ${r.fast_seconds.toFixed(1)} s, CPU ${r.fast_cpu_seconds.toFixed(1)} s; ${
      r.cpu_speedup.toFixed(2)
    }× less CPU — vectors ${r.identical ? "bit-identical" : "DIFFER"}`,
  );
}

/** CPU seconds of this process plus its waited-for children (Linux /proc; 0 elsewhere). */
function cpuSeconds(): number {
  try {
    // utime, stime, cutime, cstime in clock ticks (100 per second), after the command name.
    const stat = Deno.readTextFileSync("/proc/self/stat");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").slice(11, 15).map(Number);
    return f.reduce((a, b) => a + b, 0) / 100;
  } catch {
    return 0;
  }
}

/** `n` distinct code texts: the run's pool snippets, else built-in canonicals and edited copies. */
async function benchTexts(n: number): Promise<{ texts: string[]; from: string }> {
  let pool: string[];
  let from: string;
  if (existsSync(tablePath("corpus"))) {
    from = tablePath("corpus");
    pool = [...new Set((await readTableRows(from, pick(CORPUS, "code"))).map((r) => r.code))];
    // Spread over the lengths, as the stage's batches are, rather than the first n.
    pool.sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
    if (pool.length > n) {
      pool = Array.from({ length: n }, (_, i) => pool[Math.floor(i * pool.length / n)]);
    }
  } else {
    from = "data/builtin_tasks.jsonl";
    const path = new URL("../../data/builtin_tasks.jsonl", import.meta.url);
    pool = (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim() !== "")
      .map((l) => (JSON.parse(l) as { canonical: string }).canonical);
  }
  const seen = new Set<string>();
  const texts: string[] = [];
  for (let round = 0; texts.length < n && round < n; round++) {
    for (const code of pool) {
      if (texts.length >= n) break;
      // Round 0: the texts as they are; then single-edit copies, then marked copies.
      const edit = EDITS[(round - 1) % EDITS.length];
      let text = round === 0 ? code : round <= EDITS.length ? code.replace(edit[0], edit[1]) : code;
      if (round > EDITS.length || seen.has(text)) text = `${text}\n# copy ${round}`;
      if (seen.has(text)) continue;
      seen.add(text);
      texts.push(text);
    }
  }
  return { texts, from: texts.length < n ? `${from} (only ${texts.length} texts)` : from };
}

function printUseWorkers(r: UseWorkersReport): void {
  console.log(
    `  use in worker processes — ${r.texts} texts (${r.batches} batches) from ${r.from}, ${r.cores} cores:`,
  );
  console.log(
    `    1 worker: ${r.one_worker_seconds.toFixed(1)} s (${
      r.one_worker_texts_per_second.toFixed(1)
    } texts/s); ${r.workers} workers: ${r.n_workers_seconds.toFixed(1)} s (${
      r.n_workers_texts_per_second.toFixed(1)
    } texts/s); ${r.speedup.toFixed(2)}×; CPU ${r.one_worker_cpu_seconds.toFixed(1)} s vs ${
      r.n_workers_cpu_seconds.toFixed(1)
    } s — vectors ${r.identical ? "bit-identical" : "DIFFER"}`,
  );
}
