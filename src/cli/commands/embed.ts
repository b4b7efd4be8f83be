import { join } from "node:path";
import { type Command, parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { embeddingsDir } from "../../io/paths.ts";
import {
  DEFAULT_INVOCATIONS_PATH,
  invocationOrigin,
  loadInvocations,
} from "../../embed/invocations.ts";
import { isSparse, missingRequirements } from "../../embed/provider_registry.ts";
import { runEmbedStage } from "../../embed/embed_stage.ts";
import { parseShard, type Shard } from "../../common/shard.ts";
import { type EmbeddingSummary, summarizeEmbeddingFile } from "../../embed/embedding_file.ts";

/** `execret embed`: embed queries and corpus for configs into out/embeddings/. */
export const embedCommand: Command = {
  name: "embed",
  help:
    `usage: execret embed --config NAME [--config NAME]... [--workers N] [--shard i/n] [--skip-unavailable] [--quiet] [--json]
       execret embed --check [--config NAME]... [--json]
       execret embed --list [--json]

Embed every query (role "query") and pool snippet (role "document") of
out/tables/queries.arrow and out/tables/corpus.arrow with each config of
data/invocations.json, writing out/embeddings/<config>.arrow (columns id, role,
vector; metadata provider, model, invocation, dims, versions, created_at).
Vectors are cached under the cache folder by (provider, model, settings, sha256
of the text sent): a rerun or a resumed run embeds only what is new.
Sparse configs (bm25, tfidf) need no embedding and write no file; the score
stage scores them directly.

options:
  --config NAME        config to embed (repeatable; comma-separated lists work too)
  --workers N          worker processes for offline models (use), each loading
                       its own model (default: the number of cores); files are
                       byte-identical whatever N
  --shard i/n          embed only the batches whose index mod n is i into the
                       vector cache and write no file; merge the shards' caches
                       with execret merge-cache, then an unsharded run embeds
                       nothing and writes the files
  --skip-unavailable   skip configs whose API key, server URL or model folder is
                       missing, with a warning, instead of failing
  --check              summarise embedding files (all, or the --config ones):
                       rows, dims, non-finite values, zero norms; exit 1 on problems
  --list               print the invocation table with what each config needs
  --quiet              no progress lines
  --json               machine-readable output

env: EXECRET_OUT (output root), EXECRET_CACHE (cache root), EXECRET_MODELS
(local ONNX models, default models/), EXECRET_HF_REMOTE=1 (let hf configs
download from the Hugging Face Hub), and each config's key_env/base_url_env.`,
  async run(args) {
    const { values } = parseFlags(args, {
      config: { type: "string", multiple: true },
      "skip-unavailable": { type: "boolean" },
      workers: { type: "string" },
      shard: { type: "string" },
      check: { type: "boolean" },
      list: { type: "boolean" },
      quiet: { type: "boolean" },
    });
    const configs = (values.config ?? []).flatMap((c) => c.split(",")).map((c) => c.trim())
      .filter((c) => c !== "");
    if (values.list) return await list(values.json ?? false);
    if (values.check) return await check(configs, values.json ?? false);
    if (configs.length === 0) {
      throw new UserError("give at least one --config NAME (see --list)", 2);
    }
    let shard: Shard | undefined;
    try {
      shard = values.shard === undefined ? undefined : parseShard(values.shard);
    } catch (e) {
      throw new UserError((e as Error).message, 2);
    }
    let result;
    try {
      result = await runEmbedStage({
        shard,
        configs,
        skipUnavailable: values["skip-unavailable"],
        quiet: values.quiet,
        workers: values.workers === undefined
          ? undefined
          : positiveInt("workers", values.workers, 1),
      });
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError((e as Error).message.split("\n")[0]);
    }
    if (values.json) printJson(result);
    else {
      for (const r of result.configs) {
        if (r.status === "written") {
          const q = r.requests;
          const traffic = q
            ? `; ${q.requests} requests, ${q.retries} retries, ${q.tokens} tokens, ${q.chars} chars`
            : "";
          console.log(
            `${r.config}: ${r.rows} vectors × ${r.dims} → ${r.path} (${r.embedded} embedded, ${r.cached} cached, ${
              r.seconds.toFixed(1)
            } s${(r.workers ?? 1) > 1 ? ` in ${r.workers} worker processes` : ""}${traffic})`,
          );
        } else if (r.status === "sharded") {
          console.log(
            `${r.config}: shard ${shard!.index}/${shard!.count}: ${r.embedded} embedded, ` +
              `${r.cached} cached into the vector cache (no file)`,
          );
        } else if (r.status === "sparse") {
          console.log(`${r.config}: sparse retriever, scored at score time (no file)`);
        } else console.log(`${r.config}: skipped (missing ${r.missing?.join(", ")})`);
      }
    }
    return 0;
  },
};

async function list(json: boolean): Promise<number> {
  const table = await loadInvocations();
  const rows = table.map((inv) => ({
    name: inv.name,
    provider: inv.provider,
    model: inv.model,
    kind: isSparse(inv) ? "sparse" : "dense",
    dims: inv.dims ?? null,
    similarity: inv.similarity,
    missing: missingRequirements(inv),
    // Where a user's own entry came from (--invocations); built-in ones have none.
    from: invocationOrigin(inv) === DEFAULT_INVOCATIONS_PATH ? null : invocationOrigin(inv) ?? null,
  }));
  if (json) {
    printJson(rows);
    return 0;
  }
  const w = (k: keyof typeof rows[0]) => Math.max(...rows.map((r) => String(r[k] ?? "").length));
  const [wn, wp, wm] = [w("name"), w("provider"), w("model")];
  for (const r of rows) {
    const status = r.missing.length === 0 ? "available" : `needs ${r.missing.join(", ")}`;
    console.log(
      `${r.name.padEnd(wn)}  ${r.provider.padEnd(wp)}  ${r.model.padEnd(wm)}  ${
        String(r.dims ?? "-").padStart(4)
      }  ${r.similarity.padEnd(6)}  ${status}${r.from ? `  (from ${r.from})` : ""}`,
    );
  }
  return 0;
}

async function check(configs: string[], json: boolean): Promise<number> {
  let paths: string[];
  if (configs.length > 0) paths = configs.map((c) => join(embeddingsDir(), `${c}.arrow`));
  else {
    paths = [];
    try {
      for await (const e of Deno.readDir(embeddingsDir())) {
        if (e.isFile && e.name.endsWith(".arrow")) paths.push(join(embeddingsDir(), e.name));
      }
    } catch {
      // No folder: nothing embedded yet.
    }
    paths.sort();
    if (paths.length === 0) throw new UserError(`${embeddingsDir()}: no embedding files to check`);
  }
  const summaries: EmbeddingSummary[] = [];
  for (const p of paths) {
    try {
      summaries.push(await summarizeEmbeddingFile(p));
    } catch (e) {
      throw new UserError((e as Error).message.split("\n")[0]);
    }
  }
  const bad = summaries.filter((s) => s.nonFinite > 0 || s.zeroNorm > 0 || s.problems.length > 0);
  if (json) printJson(summaries);
  else {
    for (const s of summaries) {
      const flags = [
        s.nonFinite > 0 ? `${s.nonFinite} non-finite` : "",
        s.zeroNorm > 0 ? `${s.zeroNorm} zero-norm` : "",
        ...s.problems,
      ].filter((x) => x !== "");
      console.log(
        `${
          s.config || s.path
        }: ${s.rows} rows (${s.queries} queries, ${s.documents} documents) × ${s.dims} dims, norm ${
          s.normMin.toFixed(3)
        }–${s.normMax.toFixed(3)} (mean ${s.normMean.toFixed(3)}) ${
          flags.length ? "PROBLEMS: " + flags.join("; ") : "ok"
        }`,
      );
    }
  }
  return bad.length > 0 ? 1 : 0;
}
