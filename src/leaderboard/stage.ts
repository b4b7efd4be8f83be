/**
 * The leaderboard stage: the committed leaderboard entries of this run's
 * benchmark, verified and scored against this run's pool and verdicts, as
 * configs beside the run's own. Writes `board_entries`, `board_rankings`,
 * `board_per_query` (read by the stats stage with the run's own per_query,
 * so every entry gets intervals, ranks and McNemar against every other
 * model) and `rejects_board` (one row per refused entry, its one line as
 * the reason).
 *
 * Entries whose model runs on this machine with nothing to fetch or pay
 * for (a built-in retriever, a local model folder that is present) get the
 * re-embedding spot check here; hosted and server models are spot-checked
 * by `execret leaderboard verify` where their key or server is at hand, and
 * stay `scored` on the board.
 *
 * @module
 */
import { readTableRows, TableNotFound, writeTable } from "../io/arrow_table.ts";
import { tablePath } from "../io/paths.ts";
import { progress } from "../io/progress.ts";
import { missingRequirements, providerEntry, providerFor } from "../embed/provider_registry.ts";
import { invocationFor } from "../embed/invocations.ts";
import { canonicalJson } from "../io/hash.ts";
import { readBenchmark } from "../score/benchmark.ts";
import { BOARD_ENTRIES, type BoardEntryRow } from "../tables/board.ts";
import { type Reject, writeRejects } from "../tables/rejects.ts";
import { PER_QUERY, RANKINGS } from "../tables/schema.ts";
import { pick } from "../io/arrow_table.ts";
import { type EntryPath, leaderboardDir, listEntries } from "./entries.ts";
import { poolDigest } from "./pool_digest.ts";
import { type ScoringPool, scoringPool } from "./score_entry.ts";
import { spotCheck } from "./spot_check.ts";
import { type BoardContext, type EntryOutcome, verifyEntry } from "./verify_entry.ts";
import type { EntryMeta } from "./entry_meta.ts";
import type { ScoredRunFile } from "./run_file.ts";
import type { Invocation } from "../embed/invocation.ts";

const CONFIG_ONLY = pick(PER_QUERY, "config");

/** Options of {@link runBoardStage}. */
export interface BoardStageOptions {
  /** The run's benchmark: its profile's name. */
  benchmark: string;
  ks: readonly number[];
  /** The leaderboard folder (default: the repository's `leaderboard/`). */
  root?: string;
  quiet?: boolean;
}

/**
 * The run's own config names (per_query and rerank_per_query), each with
 * its invocation as canonical JSON where it has one in the invocation tables.
 */
async function runConfigs(): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>();
  for (const table of ["per_query", "rerank_per_query"]) {
    try {
      for (const r of await readTableRows(tablePath(table), CONFIG_ONLY)) names.set(r.config, null);
    } catch (e) {
      if (!(e instanceof TableNotFound)) throw e;
    }
  }
  for (const name of names.keys()) {
    try {
      names.set(name, canonicalJson(await invocationFor(name)));
    } catch {
      // A reranked config or a released system: no invocation of its own.
    }
  }
  return names;
}

/** Whether an entry's model runs here with nothing fetched or paid for. */
export function runsHereOffline(inv: Invocation): boolean {
  const entry = providerEntry(inv.provider);
  return !entry.hosted && !entry.needsBaseUrl && missingRequirements(inv).length === 0;
}

/** The spot check of an entry's model, when it can run here at all (else null). */
export function spotCheckWith(pool: ScoringPool, reachable: (inv: Invocation) => boolean) {
  return async (meta: EntryMeta, run: ScoredRunFile) => {
    if (!reachable(meta.invocation)) return null;
    const provider = await providerFor(meta.invocation);
    return await spotCheck(run, pool, meta.invocation, provider);
  };
}

/** Verify every entry of `benchmark` in `root` against the run's tables (see the module comment). */
export async function verifyBoard(
  options: BoardStageOptions & {
    /** Whose models the spot check may run (default: those that run here offline). */
    reachable?: (inv: Invocation) => boolean;
    /** These entries only (default: every entry of the benchmark in `root`). */
    entries?: EntryPath[];
  },
): Promise<{ outcomes: EntryOutcome[]; ctx: BoardContext }> {
  const benchmark = await readBenchmark();
  const pool = scoringPool(benchmark);
  const ctx: BoardContext = {
    benchmark: options.benchmark,
    digest: poolDigest(benchmark.queries, benchmark.corpus),
    pool,
    ks: options.ks,
    taken: await runConfigs(),
    spotCheck: spotCheckWith(pool, options.reachable ?? runsHereOffline),
  };
  const entries = options.entries ??
    listEntries(options.root ?? leaderboardDir(), options.benchmark);
  const bar = progress("leaderboard", entries.length, { quiet: options.quiet });
  const models = new Map<string, string>();
  const outcomes: EntryOutcome[] = [];
  for (const entry of entries) {
    outcomes.push(await verifyEntry(entry, ctx, models));
    bar.tick();
  }
  bar.done();
  return { outcomes, ctx };
}

/** Run the board stage and write its tables; the number of entries on the board and refused. */
export async function runBoardStage(
  options: Parameters<typeof verifyBoard>[0],
): Promise<{ verified: number; refused: number }> {
  const { outcomes } = await verifyBoard(options);
  const entries: BoardEntryRow[] = [];
  const rankings = [];
  const perQuery = [];
  const rejects: Reject[] = [];
  for (const o of outcomes) {
    if (!o.ok) {
      rejects.push({
        stage: "leaderboard",
        source: "leaderboard",
        locator: o.entry.shown,
        reason: o.reason,
      });
      continue;
    }
    const { entry, meta, run, scored, level, spot, ofRun } = o.verified;
    // The run's own config, verified as an entry: on the board already, under its name.
    if (ofRun) continue;
    entries.push({
      config: entry.name,
      benchmark: meta.benchmark,
      model: meta.model,
      revision: meta.revision,
      provider: meta.invocation.provider,
      invocation: JSON.stringify(meta.invocation),
      submitted_by: meta.submitted_by,
      date: meta.date,
      kit_version: meta.kit_version,
      level,
      own_scored: scored.ownScored,
      spot_queries: spot?.queries ?? null,
      spot_rank1_agreement: spot?.rank1Agreement ?? null,
      spot_top10_overlap: spot?.top10Overlap ?? null,
      run_path: `leaderboard/${entry.benchmark}/${entry.name}/${meta.run}`,
      meta_path: `leaderboard/${entry.benchmark}/${entry.name}/meta.json`,
      run_sha256: run.sha256,
    });
    rankings.push(...scored.rankings);
    perQuery.push(...scored.perQuery);
  }
  await writeTable("board_entries", entries, BOARD_ENTRIES);
  await writeTable("board_rankings", rankings, RANKINGS);
  await writeTable("board_per_query", perQuery, PER_QUERY);
  await writeRejects("leaderboard", rejects);
  for (const r of rejects) console.error(`board: refused ${r.reason}`);
  return { verified: entries.length, refused: rejects.length };
}
