import { diffOneEdit } from "../mutate/diff_one_edit.ts";
import type { ReleasedSnippet } from "../release/released_rows.ts";
import { codeSha256 } from "../release/cache_keys.ts";
import type { Bundle } from "../release/bundle_types.ts";
import type { RowOf } from "../io/arrow_table.ts";
import type { RELEASED_CORPUS } from "../tables/release.ts";
import type { QueryRow, TaskRow } from "../tables/schema.ts";

/**
 * The `queries` rows of a release: one per released query the tasks stage
 * kept (`taskOf` maps a released query id to its task), with the released
 * correct and distractor ids.
 */
export function releasedQueryRows(
  bundle: Bundle,
  taskOf: ReadonlyMap<string, TaskRow>,
): QueryRow[] {
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
): RowOf<typeof RELEASED_CORPUS> {
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
