/**
 * The Universal Sentence Encoder benchmarks of `execret bench embed`: worker
 * processes against one, and the kit's fast path against the package's.
 *
 * @module
 */
import { join } from "node:path";
import { withNulls, writeTable } from "../../io/arrow_table.ts";
import { embeddingsDir } from "../../io/paths.ts";
import { CORPUS, QUERIES } from "../../tables/schema.ts";
import { invocationFor } from "../../embed/invocations.ts";
import { runEmbedStage } from "../../embed/embed_stage.ts";
import { readEmbeddingFile } from "../../embed/embedding_file.ts";

import { benchTexts, cpuSeconds } from "./embed_texts.ts";

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
    await writeTable("queries", withNulls(QUERIES, []), QUERIES, { parquet: false });
    await writeTable(
      "corpus",
      withNulls(CORPUS, texts.map((code, i) => ({ corpus_id: `b${i}`, task_id: `b${i}`, code }))),
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
    import("../../embed/providers/use.ts"),
    import("../../embed/use_fast_path.ts"),
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

export function printUseFastPath(r: UseFastPathReport): void {
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

export function printUseWorkers(r: UseWorkersReport): void {
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
