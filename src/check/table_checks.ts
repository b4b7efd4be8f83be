import { join } from "node:path";
import { readTableRows, type TableSpec } from "../io/arrow_table.ts";
import { sha256Hex } from "../io/hash.ts";
import { outDir, tablePath } from "../io/paths.ts";
import { CORPUS, MUTANTS, QUERIES, type RankingRow, RANKINGS, TASKS } from "../tables/schema.ts";
import { type Check, readManifest, verdict } from "./check.ts";

const rows = <S extends TableSpec>(name: string, spec: S) => readTableRows(tablePath(name), spec);

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** Every table's key column holds unique values. */
export const uniqueIds: Check = {
  name: "ids are unique in every table",
  async run() {
    const keys: [string, string, TableSpec][] = [
      ["tasks", "task_id", TASKS],
      ["mutants", "snippet_id", MUTANTS],
      ["queries", "query_id", QUERIES],
      ["corpus", "corpus_id", CORPUS],
    ];
    const problems: string[] = [];
    let n = 0;
    for (const [table, key, spec] of keys) {
      const values = (await rows(table, spec)).map((r) => String(r[key]));
      n += values.length;
      for (const d of duplicates(values)) problems.push(`${table}.${key} "${d}" repeats`);
    }
    return verdict(this.name, problems, `${n} ids in ${keys.length} tables`);
  },
};

/**
 * Every query's canonical and paired distractors are in the pool, belong to
 * the query's task, and carry the right label; every pool snippet is some
 * query's canonical or distractor.
 */
export const queriesMatchCorpus: Check = {
  name: "every query has its canonical and distractors in the pool",
  async run() {
    const queries = await rows("queries", QUERIES);
    const corpus = new Map((await rows("corpus", CORPUS)).map((c) => [c.corpus_id, c]));
    const problems: string[] = [];
    const used = new Set<string>();
    for (const q of queries) {
      if (q.correct_ids.length === 0) problems.push(`${q.query_id}: no correct id`);
      for (
        const [ids, label] of [[q.correct_ids, "correct"], [q.distractor_ids, "incorrect"]] as const
      ) {
        for (const id of ids) {
          used.add(id);
          const c = corpus.get(id);
          if (!c) problems.push(`${q.query_id}: ${id} is not in corpus`);
          else if (c.task_id !== q.task_id) {
            problems.push(`${id}: task ${c.task_id} ≠ ${q.task_id}`);
          } else if (c.label !== label) problems.push(`${id}: label ${c.label}, expected ${label}`);
          else if (label === "incorrect" && !c.bug_type) problems.push(`${id}: no bug_type`);
        }
      }
    }
    for (const id of corpus.keys()) if (!used.has(id)) problems.push(`${id}: in no query`);
    return verdict(this.name, problems, `${queries.length} queries, ${corpus.size} snippets`);
  },
};

/** Each config ranks each query 1..min(10, pool) with consistent labels. */
export const rankingsComplete: Check = {
  name: "rankings are complete and consistent with the pool",
  async run() {
    const queries = await rows("queries", QUERIES);
    const corpus = new Map((await rows("corpus", CORPUS)).map((c) => [c.corpus_id, c]));
    const ranking = await rows("rankings", RANKINGS);
    const top = Math.min(10, corpus.size);
    const byKey = new Map<string, RankingRow[]>();
    for (const r of ranking) {
      if (!r.in_top) continue;
      const key = `${r.config}\t${r.query_id}`;
      byKey.set(key, [...(byKey.get(key) ?? []), r]);
    }
    const configs = [...new Set(ranking.map((r) => r.config))].sort();
    const problems: string[] = [];
    for (const config of configs) {
      for (const q of queries) {
        const list = byKey.get(`${config}\t${q.query_id}`) ?? [];
        const ranks = list.map((r) => r.rank).sort((a, b) => a - b);
        if (ranks.join() !== Array.from({ length: top }, (_, i) => i + 1).join()) {
          problems.push(`${config}/${q.query_id}: ranks ${ranks.join(",") || "none"}`);
        }
        for (const r of list) {
          const c = corpus.get(r.corpus_id);
          if (!c) problems.push(`${config}/${q.query_id}: ${r.corpus_id} not in corpus`);
          else if (c.label !== r.label) problems.push(`${r.corpus_id}: label differs from corpus`);
        }
      }
    }
    return verdict(this.name, problems, `${configs.length} configs × ${queries.length} queries`);
  },
};

/** The manifest's digests match the files on disk. */
export const manifestDigests: Check = {
  name: "manifest digests match the files",
  async run() {
    const manifest = await readManifest();
    const problems: string[] = [];
    for (const f of manifest.files) {
      let actual: string;
      try {
        actual = sha256Hex(await Deno.readFile(join(outDir(), f.path)));
      } catch {
        problems.push(`${f.path}: missing`);
        continue;
      }
      if (actual !== f.sha256) problems.push(`${f.path}: sha256 differs`);
    }
    return verdict(this.name, problems, `${manifest.files.length} files`);
  },
};
