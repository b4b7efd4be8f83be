import { basename, join } from "node:path";
import { jsonlLines } from "../sources/jsonl_lines.ts";
import { BundleError, type BundleProblem } from "./bundle_problem.ts";
import { fileExists } from "../io/file_exists.ts";
import {
  isId,
  isObject,
  isStringList,
  readReleasedCorpus,
  readReleasedQueries,
  type ReleasedQuery,
  type ReleasedSnippet,
} from "./released_rows.ts";

export type { ReleasedQuery, ReleasedSnippet } from "./released_rows.ts";

/** One row of `data/execution_cache.jsonl`. */
export interface CacheEntry {
  code_sha256: string;
  tests_sha256: string;
  outcomes: string[];
  locator: string;
}

/** One of a query's released top results. */
export interface TopResult {
  rank: number;
  corpus_id: string;
  label: string;
  bug_type: string;
  similarity: number;
  passes_all_tests: boolean;
  test_results: string[];
}

/** One released query ranking of a model. */
export interface ReleasedQueryRanking {
  query_id: string;
  correct_corpus_ids: string[];
  top_results: TopResult[];
}

/** `results/<model>.json`. */
export interface ReleasedRun {
  model: string;
  n_queries: number;
  n_corpus: number;
  ks: number[];
  /** e.g. "exec@1" → 0.331 */
  metrics: Record<string, number>;
  per_query: ReleasedQueryRanking[];
  /** path of the file */
  file: string;
  /** Its path under `results/` without `.json` (matches its `.npz` under `embeddings/`). */
  stem: string;
}

/** One metric × k entry of a pair in `tests/pairwise_tests.json`. */
export interface ReleasedPairEntry {
  a_only?: number;
  b_only?: number;
  both?: number;
  neither?: number;
  a_rate: number;
  b_rate: number;
  delta: number;
  mcnemar_exact_p?: number;
  bootstrap_ci_95: [number, number];
}

/** One pair of `tests/pairwise_tests.json`. */
export interface ReleasedPair {
  key: string;
  a: string;
  b: string;
  metrics: Record<string, ReleasedPairEntry>;
}

/** One model × metric of `tests/confidence_intervals.json`. */
export interface ReleasedInterval {
  mean: number;
  ci95_low: number;
  ci95_high: number;
  n: number;
  bootstrap_samples: number;
  seed: number;
}

/** A released bundle, read and validated. */
export interface Bundle {
  /** The folder it was read from (after mirror resolution). */
  dir: string;
  /** Where each of its files was found. */
  files: BundlePaths;
  queries: ReleasedQuery[];
  corpus: Map<string, ReleasedSnippet>;
  /** Keyed by `${code_sha256}/${tests_sha256}`. */
  cache: Map<string, CacheEntry>;
  /** In model-name order. */
  runs: ReleasedRun[];
  leaderboard: Record<string, unknown>[];
  invocations: Record<string, unknown>[];
  pairs: ReleasedPair[];
  /** model → metric → interval */
  intervals: Map<string, Map<string, ReleasedInterval>>;
  /** model → its `embeddings/*.npz` file (dense systems with saved matrices). */
  embeddings: Map<string, string>;
}

/**
 * The bundle's files, relative to its folder, as the release's READMEs lay
 * them out (revision ace5c3f): the two top-level JSON files live in
 * `results/` beside the per-model files. Earlier drafts kept them at the
 * root; {@link ROOT_FALLBACK} lists where else each may be.
 */
export const BUNDLE_FILES = {
  queries: "data/queries.jsonl",
  corpus: "data/corpus.jsonl",
  cache: "data/execution_cache.jsonl",
  results: "results",
  leaderboard: "results/full_leaderboard.json",
  invocations: "results/invocation_table.json",
  pairwise: "tests/pairwise_tests.json",
  intervals: "tests/confidence_intervals.json",
} as const;

/** Files the release ships that the kit reads when present. */
export const OPTIONAL_FILES = {
  embeddings: "embeddings",
  embeddingSummary: "tests/embedding_summary.json",
  pairedDifferences: "tests/paired_difference_intervals.json",
  validation: "tests/dataset_validation.json",
  distractorMetadata: "data/distractor_metadata.jsonl",
  sums: "SHA256SUMS",
} as const;

/** Other accepted places of a bundle file (a draft layout with the JSON files at the root). */
const ROOT_FALLBACK: Partial<Record<keyof typeof BUNDLE_FILES, string>> = {
  leaderboard: "full_leaderboard.json",
  invocations: "invocation_table.json",
};

/** Names in `results/` that are not per-model files. */
const NOT_MODEL_FILES = new Set(["full_leaderboard.json", "invocation_table.json"]);

/** Where each bundle file was found (absolute paths). */
export type BundlePaths = Record<keyof typeof BUNDLE_FILES, string>;

/** The metric families of the release, in report order. */
export const RELEASED_METRICS = ["exec", "precision", "ndcg", "exec_ndcg_gap"] as const;

const OUTCOME = /^(pass|FAIL(:[\s\S]*)?|TIMEOUT|ERROR:[\s\S]+)$/;

/**
 * Where to read the bundle: `dir` itself when it exists, else the same
 * folder under `EXECRET_MIRROR` (by its path, then by its last component),
 * so CI can hold the bundle in a shared mirror like the other task sets.
 */
export async function resolveBundleDir(dir: string): Promise<string> {
  const candidates = [dir];
  const mirror = Deno.env.get("EXECRET_MIRROR");
  if (mirror) candidates.push(join(mirror, dir), join(mirror, basename(dir)));
  for (const c of candidates) {
    if (await isDir(c)) return c;
  }
  const where = mirror ? ` (nor under EXECRET_MIRROR=${mirror})` : "";
  throw new BundleError([{ locator: dir, reason: `no such bundle folder${where}` }]);
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Read and validate a released bundle. Everything the audit relies on is
 * checked here: every file present and parseable, ids unique and resolvable,
 * each results file covering exactly the released queries and corpus, top
 * results consistent with the corpus, the pairwise and interval files
 * covering every released model. All problems are collected, then thrown
 * together as one {@link BundleError}; numbers that merely disagree with a
 * recomputation are not problems here but findings of the audit.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * const bundle = await readBundle("test/fixtures/release/bundle");
 * deepStrictEqual(bundle.runs.map((r) => r.model), ["acme-embed-small", "bm25", "nimbus-code-v2"]);
 * ```
 */
export async function readBundle(dir: string): Promise<Bundle> {
  const root = await resolveBundleDir(dir);
  const problems: BundleProblem[] = [];
  const problem = (locator: string, reason: string) => problems.push({ locator, reason });

  const files = {} as BundlePaths;
  for (const [key, rel] of Object.entries(BUNDLE_FILES) as [keyof BundlePaths, string][]) {
    const places = [rel, ROOT_FALLBACK[key]].filter((p): p is string => p !== undefined);
    let found: string | null = null;
    for (const place of places) {
      if (await fileExists(join(root, place))) {
        found = join(root, place);
        break;
      }
    }
    if (found === null) problem(join(root, rel), "missing file");
    else files[key] = found;
  }
  if (problems.length) throw new BundleError(problems);

  const corpus = await readCorpus(files.corpus, problem);
  const queries = await readQueries(files.queries, corpus, problem);
  const cache = await readCache(files.cache, problem);
  const { runs, models } = await readRuns(files.results, queries, corpus, problem);
  const leaderboard = await readRowList(files.leaderboard, "model", models, problem);
  // BM25 needs no invocation (and the release's table may have no row for
  // it); a dense system without one is caught where its similarity is read.
  const invocations = await readRowList(files.invocations, "model", [], problem);
  const pairs = await readPairs(files.pairwise, models, problem);
  const intervals = await readIntervals(files.intervals, models, problem);
  const embeddings = await findEmbeddings(join(root, OPTIONAL_FILES.embeddings), runs, problem);
  if (problems.length) throw new BundleError(problems);
  return {
    dir: root,
    files,
    queries,
    corpus,
    cache,
    runs,
    leaderboard,
    invocations,
    pairs,
    intervals,
    embeddings,
  };
}

/** Every file under `dir` with the given ending, as paths relative to `dir`, sorted. */
async function filesUnder(dir: string, ending: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await filesUnder(dir, ending, rel));
    else if (e.isFile && e.name.endsWith(ending)) out.push(rel);
  }
  return out.sort();
}

/**
 * Each dense system's saved matrices. The release names them
 * `embeddings/<model>.npz` without saying how a model id's `/` becomes a
 * file name, so a file matches a model when its stem equals the model's
 * results-file stem, else the model id itself (a subfolder per provider), else
 * the id with `/` written as `__`, `_`, `--` or `-`, else the part after the
 * `/`. A file that matches no model, or more than one, is a problem.
 */
async function findEmbeddings(
  dir: string,
  runs: readonly ReleasedRun[],
  report: Report,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!(await fileExists(dir))) return out;
  const names = (run: ReleasedRun): string[] => {
    const id = run.model;
    const tail = id.includes("/") ? id.slice(id.lastIndexOf("/") + 1) : id;
    return [run.stem, id, ...["__", "_", "--", "-"].map((s) => id.replaceAll("/", s)), tail];
  };
  for (const rel of await filesUnder(dir, ".npz")) {
    const stem = rel.slice(0, -".npz".length);
    const exact = runs.filter((r) => r.stem === stem || r.model === stem);
    const loose = runs.filter((r) => names(r).some((n) => n.toLowerCase() === stem.toLowerCase()));
    const matches = exact.length ? exact : loose;
    const file = join(dir, rel);
    if (matches.length !== 1) {
      report(
        file,
        matches.length === 0
          ? "matches no model of results/ (by file stem or model id)"
          : `matches several models: ${matches.map((r) => r.model).join(", ")}`,
      );
      continue;
    }
    const model = matches[0].model;
    if (out.has(model)) {
      report(file, `model ${model} already has matrices in ${out.get(model)}`);
      continue;
    }
    out.set(model, file);
  }
  return out;
}

type Report = (locator: string, reason: string) => void;

function isIdList(v: unknown): v is (string | number)[] {
  return Array.isArray(v) && v.every(isId);
}

function isNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

async function jsonlRows(
  file: string,
  report: Report,
): Promise<{ locator: string; value: Record<string, unknown> }[]> {
  const out: { locator: string; value: Record<string, unknown> }[] = [];
  for (const entry of jsonlLines(await Deno.readFile(file))) {
    const locator = `${file}:${entry.line}`;
    if (entry.error !== undefined) report(locator, entry.error);
    else if (!isObject(entry.value)) report(locator, "not a JSON object");
    else out.push({ locator, value: entry.value });
  }
  return out;
}

/**
 * Parse a JSON file; a syntax error is reported as `file:line:column`, since
 * a bundle's JSON files are large and the engine only gives an offset.
 */
export async function readJsonFile(file: string, report: Report): Promise<unknown> {
  // A byte-order mark is legal at the start of a UTF-8 file, not in JSON.
  const text = (await Deno.readTextFile(file)).replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    if (!at) {
      report(file, `malformed JSON: ${message.split("\n")[0]}`);
      return undefined;
    }
    const offset = Number(at[1]);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    report(`${file}:${line}:${column}`, "malformed JSON: unexpected input");
    return undefined;
  }
}

/**
 * The corpus, each row parsed by the one release row reader
 * (`released_rows.ts`); a duplicate id is a problem naming both lines.
 */
async function readCorpus(file: string, report: Report): Promise<Map<string, ReleasedSnippet>> {
  const corpus = new Map<string, ReleasedSnippet>();
  for (const line of await readReleasedCorpus(file)) {
    if ("problem" in line) {
      report(line.locator, line.problem);
      continue;
    }
    const row = line.row;
    const first = corpus.get(row.corpus_id);
    if (first) {
      report(row.locator, `duplicate corpus id ${row.corpus_id} (first at ${first.locator})`);
      continue;
    }
    corpus.set(row.corpus_id, row);
  }
  return corpus;
}

/**
 * The queries, each row parsed by the one release row reader; the audit
 * also needs each test suite as the released list of statements and every
 * referenced corpus id present with the right label.
 */
async function readQueries(
  file: string,
  corpus: Map<string, ReleasedSnippet>,
  report: Report,
): Promise<ReleasedQuery[]> {
  const out: ReleasedQuery[] = [];
  const seen = new Map<string, string>();
  for (const line of await readReleasedQueries(file)) {
    if ("problem" in line) {
      report(line.locator, line.problem);
      continue;
    }
    const q = line.row;
    const locator = q.locator;
    const where = `query id ${q.query_id}`;
    let ok = true;
    const bad = (reason: string) => {
      report(locator, `${where}: ${reason}`);
      ok = false;
    };
    if (!isStringList(q.test_suite) || q.test_suite.length === 0) {
      bad("test_suite must be a non-empty list of strings");
    }
    if (seen.has(q.query_id)) bad(`duplicate query id (first at ${seen.get(q.query_id)})`);
    if (!ok) continue;
    seen.set(q.query_id, locator);
    // Broken references are reported but the query is kept, so that the
    // results files are still checked against all the released queries.
    const refs = [[q.correct_corpus_ids, "correct"], [
      q.paired_distractor_corpus_ids,
      "incorrect",
    ]] as const;
    for (const [ids, label] of refs) {
      for (const cid of ids) {
        const row = corpus.get(cid);
        if (!row) bad(`corpus id ${cid} is referenced but not in the corpus`);
        else if (row.label !== label) bad(`corpus id ${cid} is labelled ${row.label}`);
      }
    }
    out.push({ ...q, test_suite: q.test_suite as string[] });
  }
  return out;
}

async function readCache(file: string, report: Report): Promise<Map<string, CacheEntry>> {
  const cache = new Map<string, CacheEntry>();
  for (const { locator, value: v } of await jsonlRows(file, report)) {
    if (typeof v.code_sha256 !== "string" || typeof v.tests_sha256 !== "string") {
      report(locator, "code_sha256/tests_sha256 missing or not strings");
      continue;
    }
    // The release does not name the per-test list of its cache; its results
    // files call it test_results, an earlier draft outcomes.
    const list = v.test_results ?? v.outcomes;
    if (!isStringList(list)) {
      report(locator, "test_results (or outcomes) must be a list of strings");
      continue;
    }
    const badOutcome = list.find((o) => !OUTCOME.test(o));
    if (badOutcome !== undefined) {
      report(locator, `unknown outcome ${JSON.stringify(badOutcome)}`);
      continue;
    }
    if (
      v.passes_all_tests !== undefined && v.passes_all_tests !== list.every((o) => o === "pass")
    ) {
      report(
        locator,
        `passes_all_tests is ${JSON.stringify(v.passes_all_tests)} but the outcomes disagree`,
      );
      continue;
    }
    const key = `${v.code_sha256}/${v.tests_sha256}`;
    const first = cache.get(key);
    if (first) {
      // The same pair cached twice is harmless only when the outcomes agree.
      if (JSON.stringify(first.outcomes) !== JSON.stringify(list)) {
        report(
          locator,
          `cache key ${key} repeated with other outcomes (first at ${first.locator})`,
        );
      }
      continue;
    }
    cache.set(key, {
      code_sha256: v.code_sha256,
      tests_sha256: v.tests_sha256,
      outcomes: list,
      locator,
    });
  }
  return cache;
}

async function readRuns(
  dir: string,
  queries: ReleasedQuery[],
  corpus: Map<string, ReleasedSnippet>,
  report: Report,
): Promise<{ runs: ReleasedRun[]; models: string[] }> {
  // Model ids carry a provider prefix ("google/gemini-embedding-2"), so a
  // results file may sit in a subfolder; the id inside the file is the key.
  const files = (await filesUnder(dir, ".json")).filter((rel) => !NOT_MODEL_FILES.has(rel));
  if (files.length === 0) report(dir, "no results/<model>.json files");
  const byQuery = new Map(queries.map((q) => [q.query_id, q]));
  const runs: ReleasedRun[] = [];
  const models = new Map<string, string>();
  for (const name of files) {
    const file = join(dir, name);
    const v = await readJsonFile(file, report);
    if (v === undefined) continue;
    // A file with problems still declares its model, so the other files'
    // rows for it are not reported as strays too.
    const declared = isObject(v) && typeof v.model === "string" ? v.model : null;
    if (declared !== null && !models.has(declared)) models.set(declared, file);
    const run = shapeRun(v, file, name.slice(0, -".json".length), byQuery, corpus, report);
    if (!run) continue;
    if (models.get(run.model) !== file) {
      report(file, `model ${run.model} also released in ${models.get(run.model)}`);
      continue;
    }
    runs.push(run);
  }
  runs.sort((a, b) => a.model < b.model ? -1 : a.model > b.model ? 1 : 0);
  return { runs, models: [...models.keys()].sort() };
}

function shapeRun(
  v: unknown,
  file: string,
  stem: string,
  byQuery: Map<string, ReleasedQuery>,
  corpus: Map<string, ReleasedSnippet>,
  report: Report,
): ReleasedRun | null {
  if (!isObject(v)) {
    report(file, "not a JSON object");
    return null;
  }
  let count = 0;
  const bad = (reason: string) => {
    count++;
    report(file, reason);
  };
  if (typeof v.model !== "string" || v.model === "") bad("model missing or not a string");
  if (v.n_queries !== byQuery.size) {
    bad(`n_queries is ${JSON.stringify(v.n_queries)}, queries.jsonl has ${byQuery.size} queries`);
  }
  if (v.n_corpus !== corpus.size) {
    bad(`n_corpus is ${JSON.stringify(v.n_corpus)}, corpus.jsonl has ${corpus.size} rows`);
  }
  if (!Array.isArray(v.ks) || !v.ks.every((k) => Number.isInteger(k) && k > 0)) {
    bad("ks must be a list of positive integers");
  }
  if (!isObject(v.metrics) || !Object.values(v.metrics).every(isNumber)) {
    bad("metrics must map metric names to numbers");
  }
  if (!Array.isArray(v.per_query)) bad("per_query must be a list");
  if (count) return null;

  const seen = new Set<string>();
  const perQuery: ReleasedQueryRanking[] = [];
  for (const [i, pq] of (v.per_query as unknown[]).entries()) {
    const where = `per_query[${i}]`;
    if (!isObject(pq) || !isId(pq.query_id)) {
      bad(`${where}: not an object with a query_id`);
      continue;
    }
    const qid = String(pq.query_id);
    const q = byQuery.get(qid);
    if (!q) {
      bad(`${where}: query id ${qid} is not in queries.jsonl`);
      continue;
    }
    if (seen.has(qid)) {
      bad(`${where}: query id ${qid} ranked twice`);
      continue;
    }
    seen.add(qid);
    const correct = isIdList(pq.correct_corpus_ids) ? pq.correct_corpus_ids.map(String) : null;
    if (!correct || correct.join("\n") !== q.correct_corpus_ids.join("\n")) {
      bad(`query id ${qid}: correct_corpus_ids differ from queries.jsonl`);
      continue;
    }
    if (!Array.isArray(pq.top_results)) {
      bad(`query id ${qid}: top_results must be a list`);
      continue;
    }
    const top: TopResult[] = [];
    for (const [j, r] of pq.top_results.entries()) {
      const at = `query id ${qid}, top_results[${j}]`;
      if (
        !isObject(r) || r.rank !== j + 1 || !isId(r.corpus_id) || !isNumber(r.similarity) ||
        typeof r.passes_all_tests !== "boolean" || !isStringList(r.test_results)
      ) {
        bad(`${at}: needs rank ${j + 1}, corpus_id, similarity, passes_all_tests, test_results`);
        continue;
      }
      const cid = String(r.corpus_id);
      const snippet = corpus.get(cid);
      if (!snippet) {
        bad(`${at}: corpus id ${cid} is not in the corpus`);
        continue;
      }
      if (r.label !== snippet.label) {
        bad(`${at}: corpus id ${cid} has label ${r.label}, corpus.jsonl says ${snippet.label}`);
      }
      if ((r.bug_type ?? "") !== (snippet.bug_type ?? "")) {
        bad(
          `${at}: corpus id ${cid} has bug_type "${r.bug_type}", corpus.jsonl says "${
            snippet.bug_type ?? ""
          }"`,
        );
      }
      if (r.test_results.length !== q.test_suite.length) {
        bad(`${at}: ${r.test_results.length} test_results for ${q.test_suite.length} tests`);
      }
      if (r.passes_all_tests !== r.test_results.every((o) => o === "pass")) {
        bad(`${at}: passes_all_tests is ${r.passes_all_tests} but test_results disagree`);
      }
      if (j > 0 && r.similarity > top[top.length - 1]?.similarity) {
        bad(`${at}: similarity rises from rank ${j} to ${j + 1}`);
      }
      top.push({
        rank: j + 1,
        corpus_id: cid,
        label: String(r.label),
        bug_type: String(r.bug_type ?? ""),
        similarity: r.similarity,
        passes_all_tests: r.passes_all_tests,
        test_results: r.test_results,
      });
    }
    perQuery.push({ query_id: qid, correct_corpus_ids: correct, top_results: top });
  }
  for (const qid of byQuery.keys()) {
    if (!seen.has(qid)) bad(`query id ${qid} has no per_query entry`);
  }
  if (count) return null;
  return {
    model: v.model as string,
    n_queries: v.n_queries as number,
    n_corpus: v.n_corpus as number,
    ks: v.ks as number[],
    metrics: v.metrics as Record<string, number>,
    per_query: perQuery,
    file,
    stem,
  };
}

async function readRowList(
  file: string,
  key: string,
  models: string[],
  report: Report,
): Promise<Record<string, unknown>[]> {
  const v = await readJsonFile(file, report);
  if (v === undefined) return [];
  // A list of rows, or an object keyed by model: the release does not say which.
  const rows = isObject(v) && Object.values(v).every(isObject)
    ? Object.entries(v).map(([model, row]) => ({ [key]: model, ...(row as object) }))
    : v;
  if (!Array.isArray(rows) || !rows.every(isObject)) {
    report(file, `must be a JSON list of objects or an object keyed by ${key}`);
    return [];
  }
  const have = new Set(rows.map((row) => String(row[key])));
  for (const m of models) {
    if (!have.has(m)) report(file, `model ${m} has no row`);
  }
  return rows as Record<string, unknown>[];
}

async function readPairs(file: string, models: string[], report: Report): Promise<ReleasedPair[]> {
  const v = await readJsonFile(file, report);
  if (v === undefined) return [];
  if (!isObject(v)) {
    report(file, 'must be a JSON object keyed by "A vs B"');
    return [];
  }
  const known = new Set(models);
  const pairs: ReleasedPair[] = [];
  for (const [key, entry] of Object.entries(v)) {
    const m = /^(.+) vs (.+)$/.exec(key);
    if (!m) {
      report(file, `pair "${key}": key is not "A vs B"`);
      continue;
    }
    const [, a, b] = m;
    if (!(a < b)) report(file, `pair "${key}": models not in order (A < B)`);
    for (const x of [a, b]) {
      if (!known.has(x)) report(file, `pair "${key}": model ${x} has no results file`);
    }
    if (!isObject(entry)) {
      report(file, `pair "${key}": not an object of metrics`);
      continue;
    }
    const metrics: Record<string, ReleasedPairEntry> = {};
    for (const [metric, e] of Object.entries(entry)) {
      const at = `pair "${key}", ${metric}`;
      if (
        !isObject(e) || !isNumber(e.a_rate) || !isNumber(e.b_rate) || !isNumber(e.delta) ||
        !Array.isArray(e.bootstrap_ci_95) || e.bootstrap_ci_95.length !== 2 ||
        !e.bootstrap_ci_95.every(isNumber)
      ) {
        report(file, `${at}: needs a_rate, b_rate, delta and bootstrap_ci_95 [low, high]`);
        continue;
      }
      for (const c of ["a_only", "b_only", "both", "neither"]) {
        if (e[c] !== undefined && !Number.isInteger(e[c])) {
          report(file, `${at}: ${c} not an integer`);
        }
      }
      if (e.mcnemar_exact_p !== undefined && !isNumber(e.mcnemar_exact_p)) {
        report(file, `${at}: mcnemar_exact_p not a number`);
      }
      metrics[metric] = e as unknown as ReleasedPairEntry;
    }
    pairs.push({ key, a, b, metrics });
  }
  const have = new Set(pairs.map((p) => p.key));
  const sorted = [...models].sort();
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const key = `${sorted[i]} vs ${sorted[j]}`;
      if (!have.has(key)) report(file, `pair "${key}" missing`);
    }
  }
  return pairs.sort((x, y) => x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
}

async function readIntervals(
  file: string,
  models: string[],
  report: Report,
): Promise<Map<string, Map<string, ReleasedInterval>>> {
  const out = new Map<string, Map<string, ReleasedInterval>>();
  const v = await readJsonFile(file, report);
  if (v === undefined) return out;
  if (!isObject(v)) {
    report(file, "must be a JSON object keyed by model");
    return out;
  }
  for (const model of models) {
    const perModel = v[model];
    if (!isObject(perModel)) {
      report(file, `model ${model} has no intervals`);
      continue;
    }
    const metrics = new Map<string, ReleasedInterval>();
    for (const [metric, e] of Object.entries(perModel)) {
      const fields = ["mean", "ci95_low", "ci95_high", "n", "bootstrap_samples", "seed"];
      if (!isObject(e) || !fields.every((f) => isNumber(e[f]))) {
        report(file, `model ${model}, ${metric}: needs ${fields.join(", ")}`);
        continue;
      }
      metrics.set(metric, e as unknown as ReleasedInterval);
    }
    out.set(model, metrics);
  }
  for (const model of Object.keys(v)) {
    if (!models.includes(model)) {
      report(file, `model ${model} has no results file`);
    }
  }
  return out;
}
