import { join } from "node:path";
import { pick, readTableRows, type TableSpec } from "../io/arrow_table.ts";
import { embeddingsDir, tablePath } from "../io/paths.ts";
import { suiteCodeSha, testsSha } from "../oracle/cache.ts";
import { loadPythonParser } from "../common/python_parser.ts";
import { verifyMutant } from "../mutate/verify_mutant.ts";
import { summarizeEmbeddingFile } from "../embed/embedding_file.ts";
import { checkMetricsAgainstRankings } from "../stats/recompute.ts";
import { type Check, readManifest, verdict } from "./check.ts";
import { CORPUS, EXECUTIONS, MUTANTS, QUERIES, TASKS } from "../tables/schema.ts";

const rows = <S extends TableSpec>(name: string, spec: S) => readTableRows(tablePath(name), spec);

/**
 * Re-verify the benchmark from the recorded executions: every canonical in
 * the pool passed every test of its task, every distractor failed at least
 * one, and each has an outcome for every test.
 */
export const poolVerifiedByExecutions: Check = {
  name: "canonicals pass all tests, distractors fail one (from executions)",
  async run() {
    const tasks = new Map((await rows("tasks", TASKS)).map((t) => [t.task_id, t]));
    const outcomes = new Map<string, string[]>();
    for (const e of await rows("executions", EXECUTIONS)) {
      const key = `${e.code_sha256}:${e.tests_sha256}`;
      const list = outcomes.get(key) ?? [];
      list[e.test_index] = e.outcome;
      outcomes.set(key, list);
    }
    const problems: string[] = [];
    const corpus = await rows("corpus", CORPUS);
    for (const c of corpus) {
      const task = tasks.get(c.task_id);
      if (!task) {
        problems.push(`${c.corpus_id}: task ${c.task_id} not in tasks`);
        continue;
      }
      const got = outcomes.get(`${suiteCodeSha(task.setup, c.code)}:${testsSha(task.tests)}`);
      if (!got || got.length !== task.tests.length || got.includes(undefined as never)) {
        problems.push(`${c.corpus_id}: no outcome for every test`);
      } else if (c.label === "correct" && got.some((o) => o !== "pass")) {
        problems.push(`${c.corpus_id}: canonical has ${got.find((o) => o !== "pass")}`);
      } else if (c.label === "incorrect" && got.every((o) => o === "pass")) {
        problems.push(`${c.corpus_id}: distractor passes every test`);
      } else if (
        c.timeout_only && got.some((o) => o !== "pass" && o !== "TIMEOUT" && o !== "NOT_RUN")
      ) {
        problems.push(`${c.corpus_id}: flagged timeout-only but fails otherwise`);
      }
    }
    return verdict(this.name, problems, `${corpus.length} snippets re-verified`);
  },
};

/**
 * Each distractor differs from its canonical by exactly one edit of its
 * recorded type, at its recorded line (the mutation engine's own check).
 */
export const distractorsOneEdit: Check = {
  name: "each distractor is one edit of its recorded type from its canonical",
  async run() {
    const tasks = new Map((await rows("tasks", TASKS)).map((t) => [t.task_id, t]));
    const mutants = new Map((await rows("mutants", MUTANTS)).map((m) => [m.snippet_id, m]));
    const parser = await loadPythonParser();
    const problems: string[] = [];
    let n = 0;
    let released = 0;
    for (const c of await rows("corpus", CORPUS)) {
      if (c.label !== "incorrect") continue;
      // The release's distractors were written by LLMs, not by the engine:
      // their type cannot be checked mechanically (release_mutations shows
      // which ones the engine reproduces), only that they are another code.
      if (c.source === "release") {
        released++;
        const task = tasks.get(c.task_id);
        if (task && task.canonical === c.code) {
          problems.push(`${c.corpus_id}: released distractor identical to its canonical`);
        }
        continue;
      }
      n++;
      const m = mutants.get(c.corpus_id);
      const task = tasks.get(c.task_id);
      if (!m || !task) {
        problems.push(`${c.corpus_id}: not in mutants or its task is missing`);
        continue;
      }
      if (m.code !== c.code || m.bug_type !== c.bug_type) {
        problems.push(`${c.corpus_id}: corpus row differs from its mutant`);
        continue;
      }
      for (const p of verifyMutant(parser, task.canonical, m)) {
        problems.push(`${c.corpus_id}: ${p}`);
      }
    }
    const detail = released ? `${n} distractors, ${released} released ones` : `${n} distractors`;
    return verdict(this.name, problems, detail);
  },
};

/** Every embedding file is finite, non-zero, of its declared size, one row per text. */
export const embeddingsHealthy: Check = {
  name: "embeddings are finite, non-zero and of declared size",
  async run() {
    const nq = (await rows("queries", pick(QUERIES, "query_id"))).length;
    const nd = (await rows("corpus", pick(CORPUS, "corpus_id"))).length;
    const problems: string[] = [];
    const files = await embeddingFileNames();
    // A run whose configs are all sparse (BM25, TF-IDF) writes no embedding
    // file at all: nothing to check is a pass, not a failure.
    if (files === null) return verdict(this.name, [], "no embedding files: nothing to check");
    for (const name of files) {
      let s;
      try {
        s = await summarizeEmbeddingFile(join(embeddingsDir(), name));
      } catch (e) {
        problems.push(`${name}: unreadable (${(e as Error).message.split("\n")[0]})`);
        continue;
      }
      for (const p of s.problems) problems.push(`${name}: ${p}`);
      if (s.nonFinite > 0) problems.push(`${name}: ${s.nonFinite} non-finite vectors`);
      if (s.zeroNorm > 0) problems.push(`${name}: ${s.zeroNorm} zero vectors`);
      if (s.duplicateIds > 0) problems.push(`${name}: ${s.duplicateIds} duplicate ids`);
      if (s.queries !== nq || s.documents !== nd) {
        problems.push(`${name}: ${s.queries} queries/${s.documents} docs, pool has ${nq}/${nd}`);
      }
    }
    return verdict(this.name, problems, `${files.length} files`);
  },
};

/**
 * Names of the embedding files the run's manifest lists, or null when it
 * lists none. The manifest, not the folder: a file an earlier run of another
 * profile left there is not this run's to check.
 */
async function embeddingFileNames(): Promise<string[] | null> {
  const files = (await readManifest()).files.map((f) => f.path)
    .filter((p) => p.startsWith("embeddings/") && p.endsWith(".arrow"))
    .map((p) => p.slice("embeddings/".length)).sort();
  return files.length > 0 ? files : null;
}

/** Every metric that rankings determine, recomputed, equals the metrics table. */
export const metricsMatchRankings: Check = {
  name: "metrics recomputed from rankings match metrics",
  async run() {
    const { checked, mismatches } = await checkMetricsAgainstRankings();
    const problems = mismatches.map((m) =>
      `${m.config} ${m.metric}@${m.k}: stored ${m.stored}, recomputed ${m.recomputed}`
    );
    return verdict(this.name, problems, `${checked} values`);
  },
};
