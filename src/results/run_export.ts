import { join } from "node:path";
import { readTableRows } from "../io/arrow_table.ts";
import { atomicWrite } from "../io/atomic_write.ts";
import { outDir, tablePath } from "../io/paths.ts";
import { beirFiles } from "./beir.ts";
import { trecQrels, trecRun } from "./trec.ts";
import { CORPUS, QUERIES, type RankingRow, RANKINGS } from "../tables/schema.ts";

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
  const queries = await readTableRows(tablePath("queries"), QUERIES);
  if (options.trec) {
    await write(join(out, "trec", "qrels.txt"), trecQrels(queries));
    const rows = (await readTableRows(tablePath("rankings"), RANKINGS)).filter((r) => r.in_top);
    const byConfig = new Map<string, RankingRow[]>();
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
    const corpus = await readTableRows(tablePath("corpus"), CORPUS);
    for (const [name, text] of Object.entries(beirFiles(queries, corpus))) {
      await write(join(out, "beir", name), text);
    }
  }
  return written;
}
