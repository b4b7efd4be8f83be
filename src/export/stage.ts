import { join } from "node:path";
import { readRows } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { outDir, tablePath } from "../io/paths.ts";
import { beirFiles } from "./beir.ts";
import { type RunRow, trecQrels, trecRun } from "./trec.ts";

/** Options of {@link runExport}. */
export interface ExportOptions {
  /** Write TREC runs (one per config) and qrels. */
  trec?: boolean;
  /** Write the BEIR-layout benchmark. */
  beir?: boolean;
  /** Output folder (default `out/export`). */
  out?: string;
}

/**
 * `execret export`: TREC files under `<out>/trec/` (`qrels.txt`,
 * `runs/<config>.txt`) and the BEIR layout under `<out>/beir/`. Atomic
 * writes; deterministic bytes. Returns the paths written.
 */
export async function runExport(options: ExportOptions): Promise<string[]> {
  const out = options.out ?? join(outDir(), "export");
  const written: string[] = [];
  const write = async (path: string, text: string) => {
    await atomicWrite(path, text);
    written.push(path);
  };
  type Q = { query_id: string; query: string; correct_ids: string[]; distractor_ids: string[] };
  const queries = await readRows<Q>(tablePath("queries"));
  if (options.trec) {
    await write(join(out, "trec", "qrels.txt"), trecQrels(queries));
    const rows =
      (await readRows<RunRow & { config: string; in_top: boolean }>(tablePath("rankings")))
        .filter((r) => r.in_top);
    const byConfig = new Map<string, (RunRow & { config: string })[]>();
    for (const r of rows) {
      let list = byConfig.get(r.config);
      if (!list) byConfig.set(r.config, list = []);
      list.push(r);
    }
    const order = new Map(queries.map((q, i) => [q.query_id, i]));
    for (const [config, list] of [...byConfig].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      list.sort((a, b) => (order.get(a.query_id)! - order.get(b.query_id)!) || a.rank - b.rank);
      await write(join(out, "trec", "runs", `${config}.txt`), trecRun(config, list));
    }
  }
  if (options.beir) {
    type D = {
      corpus_id: string;
      task_id: string;
      label: string;
      bug_type: string | null;
      code: string;
    };
    const corpus = await readRows<D>(tablePath("corpus"));
    for (const [name, text] of Object.entries(beirFiles(queries, corpus))) {
      await write(join(out, "beir", name), text);
    }
  }
  return written;
}
