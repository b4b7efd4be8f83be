import { join } from "node:path";
import { type Table, tableFromIPC } from "apache-arrow";
import { checkedRowsOf, writeTable } from "./arrow_table.ts";
import { UserError } from "../io/user_error.ts";
import { tablesDir } from "./paths.ts";
import { type RejectRow, REJECTS } from "../tables/schema.ts";

/** One rejected input or candidate (see `REJECTS` in the table contract). */
export type Reject = RejectRow;

/** Stages in pipeline order; the combined table lists their rejects in this order. */
export const REJECT_STAGES = ["tasks", "mutate", "oracle", "embed", "score", "import"] as const;

/**
 * Record a stage's rejects: write `rejects_<stage>.arrow` (replacing that
 * stage's earlier rejects, since a rerun recomputes them all), then rebuild
 * the combined `rejects.arrow` from every stage's file, so each stage owns its
 * rows and no stage can clobber another's.
 */
export async function writeRejects(stage: string, rows: readonly Reject[]): Promise<void> {
  await writeTable(`rejects_${stage}`, rows.map((r) => ({ ...r, stage })), REJECTS, {
    parquet: false,
  });
  const all: Reject[] = [];
  const known = new Set<string>(REJECT_STAGES);
  const stages = [...REJECT_STAGES, ...(known.has(stage) ? [] : [stage])];
  for (const s of stages) {
    // A loop, not push(...rows): spread arguments overflow the stack past ~100k rows (10× growth run).
    for (const row of await readStageRejects(join(tablesDir(), `rejects_${s}.arrow`))) {
      all.push(row);
    }
  }
  await writeTable("rejects", all as unknown as Record<string, unknown>[], REJECTS);
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
