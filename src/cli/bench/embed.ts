import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { pick, readTableRows, withNulls, writeTable } from "../../io/arrow_table.ts";
import { outDir, tablePath } from "../../io/paths.ts";
import { CORPUS, QUERIES } from "../../tables/schema.ts";
import { invocationFor } from "../../embed/invocations.ts";
import { isSparse, providerFor } from "../../embed/provider_registry.ts";
import { runEmbedStage } from "../../embed/embed_stage.ts";

import { EDITS } from "./embed_texts.ts";
import {
  benchUseFastPath,
  benchUseWorkers,
  printUseFastPath,
  printUseWorkers,
} from "./embed_use.ts";

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
  await writeTable("queries", withNulls(QUERIES, queries), QUERIES, { parquet: false });
  await writeTable("corpus", withNulls(CORPUS, corpus), CORPUS, { parquet: false });
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
