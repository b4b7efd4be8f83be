import { join } from "node:path";
import { type Table, tableFromIPC } from "apache-arrow";
import { checkedRowsOf, writeTable } from "../io/arrow_table.ts";
import { UserError } from "../io/user_error.ts";
import { tablesDir } from "../io/paths.ts";
import { type RejectRow, REJECTS } from "./schema.ts";
import { TABLE_CATALOG } from "./catalog.ts";

/** One rejected input or candidate (see `REJECTS` in the table contract). */
export type Reject = RejectRow;

/**
 * The stages that write rejects, in pipeline order: those with a
 * `rejects_<stage>` table in the catalog. The combined table lists their
 * rejects in this order.
 */
export const REJECT_STAGES: readonly string[] = TABLE_CATALOG
  .filter((e) => e.name === `rejects_${e.stage}`)
  .map((e) => e.stage);

/**
 * Record a stage's rejects: write `rejects_<stage>.arrow`, replacing that
 * stage's earlier rejects, since a rerun recomputes them all. Each stage owns
 * its file and only its file; the combined `rejects` table is written once,
 * from every stage's file, by {@link writeCombinedRejects} (a file several
 * stages rewrote could be stamped by none of them).
 */
export async function writeRejects(stage: string, rows: readonly Reject[]): Promise<void> {
  await writeTable(`rejects_${stage}`, rows.map((r) => ({ ...r, stage })), REJECTS, {
    parquet: false,
  });
}

/** The per-stage reject files the combined table is made of, in pipeline order. */
export function stageRejectFiles(): string[] {
  return REJECT_STAGES.map((s) => join(tablesDir(), `rejects_${s}.arrow`));
}

/**
 * Write the combined `rejects` table (Arrow + Parquet) from every stage's
 * `rejects_<stage>.arrow`, in pipeline order; a stage that has not run adds
 * nothing. Returns the rows per stage, for a run's summary.
 */
export async function writeCombinedRejects(): Promise<Record<string, number>> {
  const all: Reject[] = [];
  const counts: Record<string, number> = {};
  for (const [i, path] of stageRejectFiles().entries()) {
    const rows = await readStageRejects(path);
    if (rows.length > 0) counts[REJECT_STAGES[i]] = rows.length;
    // A loop, not push(...rows): spread arguments overflow the stack past ~100k rows (10× growth run).
    for (const row of rows) all.push(row);
  }
  await writeTable("rejects", all, REJECTS);
  return counts;
}

/**
 * One stage's rejects. A stage that has not run yet has no file, which is
 * the only error ignored: a file that cannot be read or parsed is a one-line
 * error naming it, so no stage's rejects are silently dropped.
 */
async function readStageRejects(path: string): Promise<Reject[]> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw new UserError(`${path}: cannot read (${firstLine(e)})`);
  }
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch (e) {
    throw new UserError(`${path}: not an Arrow stream of rejects (${firstLine(e)})`);
  }
  try {
    return checkedRowsOf(table, REJECTS, path);
  } catch (e) {
    throw new UserError(firstLine(e));
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}

/** One-line summary of rejects by reason, for the end of a stage. */
export function summarizeRejects(rows: readonly Reject[]): string {
  if (rows.length === 0) return "0 rejects";
  const byReason = new Map<string, number>();
  for (const r of rows) {
    const key = r.reason.split(":")[0];
    byReason.set(key, (byReason.get(key) ?? 0) + 1);
  }
  const parts = [...byReason.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`);
  return `${rows.length} rejects (${parts.join(", ")})`;
}

/**
 * The rejects that cost the benchmark a task: every row the tasks stage
 * rejected (an input row), and a later stage's rejects located at a task id
 * (a task with no mutation site, a canonical that fails or is flaky). The
 * other rejects are candidates the engine discards on its way to the
 * distractors (equivalent, not needed, an edit over two lines): how the
 * benchmark is built, not input lost.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { lostTasks } from "./rejects.ts";
 * const rows = [
 *   { stage: "oracle", source: "mbpp", locator: "mbpp/123", reason: "canonical_fails: test 1 FAIL" },
 *   { stage: "oracle", source: "mbpp", locator: "mbpp/7#m3", reason: "equivalent_mutant" },
 * ];
 * strictEqual(lostTasks(rows, new Set(["mbpp/123", "mbpp/7"])).length, 1);
 * ```
 */
export function lostTasks(rows: readonly Reject[], taskIds: ReadonlySet<string>): Reject[] {
  return rows.filter((r) => r.stage === "tasks" || taskIds.has(r.locator));
}
