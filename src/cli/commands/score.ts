import { type Command, parseFlags, positiveInt, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { runScoreStage } from "../../score/score_stage.ts";

/** `execret score`: rank the pool for every embedded config into rankings.arrow. */
export const scoreCommand: Command = {
  name: "score",
  help: `usage: execret score [--config NAME]... [--threads N] [--quiet] [--json]

Score every query of out/tables/queries.arrow against the whole pool of
out/tables/corpus.arrow for each config — dense configs from
out/embeddings/<config>.arrow (cosine over L2-normalised vectors, or raw dot,
per the file's similarity), sparse configs (bm25, tfidf) through their
provider — rank the pool (score descending, ties by a seeded hash of
(query_id, corpus_id), see src/score/tie_break.ts) and write:

  out/tables/rankings.arrow   top 10 per (config, query) + the canonical's own row
  out/tables/per_query.arrow  every per-query metric (exec, precision, ndcg, gap
                              at k = 1, 3, 5, 10; expected_exec; mrr;
                              canonical_rank; miss attribution; margins; ...)

Both tables hold exactly the configs of this run.

options:
  --config NAME   config to score (repeatable, or comma-separated); default:
                  every embedding file plus the sparse configs of
                  data/invocations.json
  --threads N     similarity kernel threads (default: cores, at most 4;
                  env EXECRET_THREADS)
  --quiet         no progress lines
  --json          machine-readable summary`,
  async run(args) {
    const { values } = parseFlags(args, {
      config: { type: "string", multiple: true },
      threads: { type: "string" },
      quiet: { type: "boolean" },
    });
    if (values.help) {
      console.log(this.help);
      return 0;
    }
    const configs = (values.config ?? []).flatMap((c) => c.split(",")).map((c) => c.trim())
      .filter((c) => c !== "");
    const threads = values.threads === undefined
      ? undefined
      : positiveInt("threads", values.threads, 1);
    let result;
    try {
      result = await runScoreStage({ configs, quiet: values.quiet, threads });
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError((e as Error).message.split("\n")[0]);
    }
    if (values.json) printJson(result);
    else {
      for (const c of result.configs) {
        console.log(
          `${c.config}: ${c.kind} (${c.similarity}), ${c.queries} queries × ${c.docs} documents, ` +
            `scored in ${c.scoreSeconds.toFixed(2)} s, ranked in ${c.rankSeconds.toFixed(2)} s`,
        );
      }
      console.log(`wrote ${result.rankings} and ${result.perQuery}`);
    }
    return 0;
  },
};
