import { diffOneEdit } from "../mutate/diff_one_edit.ts";
import type { Reject } from "../io/rejects.ts";
import { buildTasks } from "../sources/stage.ts";
import type { TaskRow } from "../sources/task.ts";
import { cacheEntryFor, codeSha256, kitOutcome, type TestsHashRule } from "./cache_keys.ts";
import type { Bundle, ReleasedSnippet } from "./read_bundle.ts";

/** The runtime label of executions taken from the released cache. */
export const RELEASE_RUNTIME = "release-cache";

/** The bundle as the kit's own tables (rows for the specs of `src/tables/schema.ts`). */
export interface ReleaseTables {
  tasks: TaskRow[];
  queries: Record<string, unknown>[];
  corpus: Record<string, unknown>[];
  executions: Record<string, unknown>[];
  rankings: Record<string, unknown>[];
  /** Rejects of the sources stage's release reader (should be none for a valid bundle). */
  rejects: Reject[];
}

/**
 * Load a validated bundle as the kit's tables:
 *
 * - tasks: through the sources stage's release reader (`release:<dir>`), so
 *   a release is read one way in the whole kit; task ids are
 *   `release/<query_id>`;
 * - queries: one per loaded task, with its released correct and distractor ids;
 * - corpus: every released snippet under its released id, with its task,
 *   the released bug type, the edit recovered by diffing against the
 *   canonical, and `timeout_only` from the cache;
 * - executions: the released cache, one row per test, `FAIL:<msg>` as FAIL,
 *   under the bundle's own keys and runtime `release-cache`;
 * - rankings: each model's released top results (config = model); the
 *   release has no rank for a canonical below its top list, so no such row,
 *   and `tie` can only see ties within the released list.
 */
export async function releaseTables(bundle: Bundle, rule: TestsHashRule): Promise<ReleaseTables> {
  const built = await buildTasks({ sources: [`release:${bundle.dir}`], quiet: true });
  const taskOf = new Map(built.rows.map((t) => [t.source_id, t]));
  const ownerOf = new Map<string, { task: TaskRow | undefined; queryId: string }>();
  for (const q of bundle.queries) {
    for (const id of [...q.correct_corpus_ids, ...q.paired_distractor_corpus_ids]) {
      ownerOf.set(id, { task: taskOf.get(q.query_id), queryId: q.query_id });
    }
  }
  const queryOf = new Map(bundle.queries.map((q) => [q.query_id, q]));

  const corpus = [...bundle.corpus.values()].map((s) => {
    const owner = ownerOf.get(s.corpus_id);
    const q = owner && queryOf.get(owner.queryId);
    const outcomes = q &&
      cacheEntryFor(bundle, rule, s.code, q.test_suite)?.outcomes.map(kitOutcome);
    const timeoutOnly = s.label === "incorrect" && outcomes
      ? outcomes.includes("TIMEOUT") && outcomes.every((o) => o === "pass" || o === "TIMEOUT")
      : null;
    return releasedCorpusRow(s, owner?.task, timeoutOnly);
  });

  const executions = [...bundle.cache.values()].flatMap((e) =>
    e.outcomes.map((o, i) => ({
      code_sha256: e.code_sha256,
      tests_sha256: e.tests_sha256,
      runtime: RELEASE_RUNTIME,
      test_index: i,
      outcome: kitOutcome(o),
    }))
  );

  const rankings = bundle.runs.flatMap((run) =>
    run.per_query.flatMap((pq) => {
      const q = queryOf.get(pq.query_id)!;
      const own = new Set([...q.correct_corpus_ids, ...q.paired_distractor_corpus_ids]);
      const scores = new Map<number, number>();
      for (const r of pq.top_results) scores.set(r.similarity, (scores.get(r.similarity) ?? 0) + 1);
      return pq.top_results.map((r) => ({
        config: run.model,
        query_id: taskOf.get(pq.query_id)?.task_id ?? `release/${pq.query_id}`,
        rank: r.rank,
        corpus_id: r.corpus_id,
        score: r.similarity,
        label: r.label,
        bug_type: r.bug_type === "" ? null : r.bug_type,
        own_task: own.has(r.corpus_id),
        tie: scores.get(r.similarity)! > 1,
        in_top: true,
      }));
    })
  );

  const queries = releasedQueryRows(bundle, taskOf);

  return { tasks: built.rows, queries, corpus, executions, rankings, rejects: built.rejects };
}

/**
 * The `queries` rows of a release: one per released query the tasks stage
 * kept (`taskOf` maps a released query id to its task), with the released
 * correct and distractor ids.
 */
export function releasedQueryRows(
  bundle: Bundle,
  taskOf: ReadonlyMap<string, TaskRow>,
): Record<string, unknown>[] {
  return bundle.queries.flatMap((q) => {
    const task = taskOf.get(q.query_id);
    if (!task) return [];
    return [{
      query_id: task.task_id,
      task_id: task.task_id,
      source: "release",
      domain: task.domain,
      query: task.query,
      entry_point: task.entry_point,
      tests: task.tests,
      correct_ids: q.correct_corpus_ids,
      distractor_ids: q.paired_distractor_corpus_ids,
    }];
  });
}

/**
 * The `corpus` row of a released snippet under its released id and label,
 * with the edit recovered by diffing a distractor against its task's
 * canonical (`task` undefined: a snippet of no kept query).
 */
export function releasedCorpusRow(
  s: ReleasedSnippet,
  task: TaskRow | undefined,
  timeoutOnly: boolean | null,
): Record<string, unknown> {
  const edit = task && s.label === "incorrect"
    ? diffOneEdit(task.canonical, s.code, s.bug_type ?? undefined)
    : null;
  return {
    corpus_id: s.corpus_id,
    task_id: task?.task_id ?? null,
    source: "release",
    domain: task?.domain ?? null,
    label: s.label,
    bug_type: s.bug_type,
    operator: null,
    line: edit?.line ?? null,
    before: edit?.before ?? null,
    after: edit?.after ?? null,
    timeout_only: timeoutOnly,
    code: s.code,
    code_sha256: codeSha256(s.code),
  };
}
