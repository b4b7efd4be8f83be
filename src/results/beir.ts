/**
 * The benchmark in BEIR layout (`corpus.jsonl`, `queries.jsonl`,
 * `qrels/test.tsv`), so BEIR/MTEB users can run their own models on it.
 * Corpus lines carry `_id`, `title` (empty) and `text` (the code), plus
 * `metadata` with the task, label and bug type; qrels list the correct ids
 * with score 1 (BEIR treats unlisted documents as non-relevant).
 */
import type { CorpusRow, QueryRow } from "../tables/schema.ts";

/** The files of a BEIR-layout dataset, path → text. */
export function beirFiles(
  queries: readonly Pick<QueryRow, "query_id" | "query" | "correct_ids">[],
  corpus: readonly Pick<CorpusRow, "corpus_id" | "task_id" | "label" | "bug_type" | "code">[],
): Record<string, string> {
  const corpusJsonl = corpus.map((d) =>
    JSON.stringify({
      _id: d.corpus_id,
      title: "",
      text: d.code,
      metadata: { task_id: d.task_id, label: d.label, bug_type: d.bug_type ?? null },
    }) + "\n"
  ).join("");
  const queriesJsonl = queries.map((q) => JSON.stringify({ _id: q.query_id, text: q.query }) + "\n")
    .join("");
  let qrels = "query-id\tcorpus-id\tscore\n";
  for (const q of queries) for (const id of q.correct_ids) qrels += `${q.query_id}\t${id}\t1\n`;
  return { "corpus.jsonl": corpusJsonl, "queries.jsonl": queriesJsonl, "qrels/test.tsv": qrels };
}
