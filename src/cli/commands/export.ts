import { type Command, parseFlags, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { runExport } from "../../results/run_export.ts";

/** `execret export`: write trec runs/qrels and a beir-layout copy of the benchmark. */
export const exportCommand: Command = {
  name: "export",
  help: `usage: execret export [--trec] [--beir] [--out DIR] [--json]

Write, under DIR (default out/export):
  trec/qrels.txt, trec/runs/<config>.txt   for trec_eval / ranx (score column =
                                           1000 - rank, our tie-broken order)
  beir/corpus.jsonl, beir/queries.jsonl, beir/qrels/test.tsv   BEIR/MTEB layout
With neither --trec nor --beir, both are written.

Check a number: trec_eval -m P.1 -m ndcg_cut.10 -m recip_rank \\
  out/export/trec/qrels.txt out/export/trec/runs/bm25.txt`,
  async run(args) {
    const { values } = parseFlags(args, {
      trec: { type: "boolean" },
      beir: { type: "boolean" },
      out: { type: "string" },
    });
    const both = !values.trec && !values.beir;
    let written;
    try {
      written = await runExport({
        trec: both || values.trec,
        beir: both || values.beir,
        out: values.out,
      });
    } catch (e) {
      throw new UserError((e as Error).message.split("\n")[0]);
    }
    if (values.json) printJson({ written });
    else for (const p of written) console.log(p);
    return 0;
  },
};
