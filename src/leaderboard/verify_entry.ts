/**
 * Verify one leaderboard entry against a benchmark the kit has built: its
 * metadata, that it was made on this pool, its run file line by line, the
 * run scored from its lists and the kit's own verdicts, the numbers it
 * claims against that scoring, and (where the model can be reached) a
 * re-embedding spot check. An entry is refused with one line naming the
 * file and the line or field; nothing else is affected by it.
 *
 * @module
 */
import { join } from "node:path";
import { canonicalJson, sha256Hex } from "../io/hash.ts";
import type { PerQueryRow } from "../tables/schema.ts";
import { checkEntryMeta, type EntryMeta, MetaError } from "./entry_meta.ts";
import { ENTRY_NAME, type EntryPath } from "./entries.ts";
import { parseRun, readRunText, RunFileError, type ScoredRunFile } from "./run_file.ts";
import { type ScoredRun, scoreRun, type ScoringPool } from "./score_entry.ts";
import type { SpotCheck } from "./spot_check.ts";

/** Largest meta.json accepted. */
const MAX_META_BYTES = 64 * 1024;

/** How sure the board is of an entry: its lists scored, or also its model re-run on a sample. */
export type EntryLevel = "re-embedded" | "scored";

/** What an entry is verified against. */
export interface BoardContext {
  /** The benchmark's name (a profile's) and its pool's digest. */
  benchmark: string;
  digest: string;
  pool: ScoringPool;
  ks: readonly number[];
  /**
   * Config names the run already has, with their invocation as canonical
   * JSON where they have one: an entry may not take a name of the run's
   * unless it is that config itself (the contributor's own run, where the
   * model is a config already).
   */
  taken: ReadonlyMap<string, string | null>;
  /**
   * The spot check, when the model can be reached from here; null when it
   * cannot (the entry is then `scored`).
   */
  spotCheck?: (meta: EntryMeta, run: ScoredRunFile) => Promise<SpotCheck | null>;
}

/** A verified entry. */
export interface VerifiedEntry {
  entry: EntryPath;
  meta: EntryMeta;
  run: ScoredRunFile;
  scored: ScoredRun;
  level: EntryLevel;
  spot: SpotCheck | null;
  /** The entry is one of the run's own configs (same name and invocation): on the board as that config. */
  ofRun: boolean;
}

/** The outcome of verifying an entry: verified, or refused with one line. */
export type EntryOutcome = { ok: true; verified: VerifiedEntry } | {
  ok: false;
  entry: EntryPath;
  reason: string;
};

/**
 * The mean of `metric` at `k` over the queries, as the statistics report
 * it (the per-query values' plain mean), or null when the entry has none.
 */
export function meanOf(rows: readonly PerQueryRow[], metric: string, k: number): number | null {
  let sum = 0, n = 0;
  for (const r of rows) {
    if (r.metric === metric && r.k === k) {
      sum += r.value;
      n++;
    }
  }
  return n === 0 ? null : sum / n;
}

/**
 * Whether a claimed decimal equals `value` at the claim's own precision
 * (its number of decimals, rounded half away from zero).
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { claimHolds } from "./verify_entry.ts";
 * strictEqual(claimHolds("0.331", 0.33104), true);
 * strictEqual(claimHolds("0.33", 0.33104), true);
 * strictEqual(claimHolds("0.332", 0.33104), false);
 * strictEqual(claimHolds("1", 0.9996), true);
 * ```
 */
export function claimHolds(claim: string, value: number): boolean {
  const decimals = claim.includes(".") ? claim.length - claim.indexOf(".") - 1 : 0;
  const scale = 10 ** decimals;
  const rounded = Math.sign(value) * Math.round(Math.abs(value) * scale) / scale;
  return rounded.toFixed(decimals) === Number(claim).toFixed(decimals);
}

/** Verify `entry` (see the module comment); `models` collects model@revision across entries. */
export async function verifyEntry(
  entry: EntryPath,
  ctx: BoardContext,
  models: Map<string, string>,
): Promise<EntryOutcome> {
  const metaPath = join(entry.shown, "meta.json");
  const refuse = (reason: string): EntryOutcome => ({ ok: false, entry, reason });
  if (!ENTRY_NAME.test(entry.name)) {
    return refuse(`${entry.shown}: the folder's name must be a config name ([a-z0-9][a-z0-9._-]*)`);
  }
  let metaText: string;
  try {
    const bytes = await Deno.readFile(join(entry.dir, "meta.json"));
    if (bytes.length > MAX_META_BYTES) return refuse(`${metaPath}: over ${MAX_META_BYTES} bytes`);
    metaText = new TextDecoder().decode(bytes);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return refuse(`${metaPath}: missing`);
    throw e;
  }
  let meta: EntryMeta;
  try {
    meta = checkEntryMeta(JSON.parse(metaText));
  } catch (e) {
    if (e instanceof SyntaxError) return refuse(`${metaPath}: not JSON (${e.message})`);
    if (e instanceof MetaError) return refuse(`${metaPath}: ${e.message}`);
    throw e;
  }
  if (meta.benchmark !== entry.benchmark) {
    return refuse(
      `${metaPath}: benchmark: "${meta.benchmark}", but the entry is in the folder of benchmark "${entry.benchmark}"`,
    );
  }
  const own = ctx.taken.get(entry.name);
  const ofRun = own !== undefined && own === canonicalJson(meta.invocation);
  if (own !== undefined && !ofRun) {
    return refuse(
      `${entry.shown}: the run already has another config named ${entry.name}; rename the entry's folder`,
    );
  }
  const modelKey = `${meta.model}@${meta.revision}`;
  const earlier = models.get(modelKey);
  if (earlier !== undefined) {
    return refuse(
      `${metaPath}: model: ${meta.model} at revision ${meta.revision} is already entered by ${earlier}`,
    );
  }
  if (meta.pool_digest !== ctx.digest) {
    return refuse(
      `${metaPath}: pool_digest: ${meta.pool_digest} is not the kit's ${ctx.benchmark} pool (${ctx.digest}): the run was made on another pool`,
    );
  }
  const runShown = join(entry.shown, meta.run);
  let bytes: Uint8Array;
  try {
    const info = await Deno.lstat(join(entry.dir, meta.run));
    if (!info.isFile) return refuse(`${runShown}: not a plain file`);
    bytes = await Deno.readFile(join(entry.dir, meta.run));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return refuse(`${metaPath}: run: ${meta.run} is not in the entry's folder`);
    }
    throw e;
  }
  let run: ScoredRunFile;
  let scored: ScoredRun;
  try {
    const parsed = parseRun(runShown, await readRunText(runShown, bytes));
    run = { path: runShown, sha256: sha256Hex(bytes), parsed };
    scored = scoreRun(runShown, parsed, ctx.pool, entry.name, ctx.ks);
  } catch (e) {
    if (e instanceof RunFileError) return refuse(e.message);
    throw e;
  }
  for (const [key, claim] of Object.entries(meta.claims)) {
    const [metric, k] = key.split("@");
    const value = meanOf(scored.perQuery, metric, Number(k));
    if (value === null) {
      return refuse(
        `${metaPath}: claims.${key}: the kit computes no ${metric} at k = ${k} for this run`,
      );
    }
    if (!claimHolds(claim, value)) {
      return refuse(
        `${metaPath}: claims.${key}: ${claim}, but the run's lists give ${value.toFixed(6)}`,
      );
    }
  }
  let spot: SpotCheck | null = null;
  if (ctx.spotCheck) {
    spot = await ctx.spotCheck(meta, run);
    if (spot && !spot.passed) return refuse(`${runShown}: spot check: ${spot.summary}`);
  }
  models.set(modelKey, metaPath);
  return {
    ok: true,
    verified: {
      entry,
      meta,
      run,
      scored,
      level: spot?.passed ? "re-embedded" : "scored",
      spot,
      ofRun,
    },
  };
}
