import { join } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { outDir, tablePath, tablesDir } from "../io/paths.ts";
import { UserError } from "../io/user_error.ts";
import { loadProfile, type Profile, validateProfile } from "./profile.ts";
import { withStageLock } from "./stage_lock.ts";
import { withRunLock } from "./run_lock.ts";
import { userInvocationFiles } from "../embed/invocations.ts";
import { pick, readTableRows } from "../io/arrow_table.ts";
import { fileExists } from "../io/file_exists.ts";
import { lostTasks, summarizeRejects } from "../tables/rejects.ts";
import { REJECTS, TASKS } from "../tables/schema.ts";
import {
  type BackgroundPrefetch,
  type PrefetchEnd,
  startBackgroundPrefetch,
} from "./background_prefetch.ts";
import { fingerprint, isFresh, withParquetCopies, writeStamp } from "./stamp.ts";
import { type StageDef, STAGES } from "./stages.ts";

/** How one stage went in a run. */
export interface StageReport {
  stage: string;
  cached: boolean;
  seconds: number;
}

/** Options for {@link ensureStage} and {@link runPipeline}. */
export interface RunOptions {
  quiet?: boolean;
  /** Called when a stage starts or is found fresh (for the progress display). */
  onStage?: (stage: string, index: number, total: number, cached: boolean) => void;
  /**
   * Stop, with the stage's first rejects, after the first stage that rejected
   * anything (a task row, a mutation site, a canonical), instead of going on
   * without it.
   */
  strict?: boolean;
  /**
   * Embed queries in the background while the oracle runs (default: yes,
   * unless EXECRET_PREFETCH=0). A command replaces the prefetch program (tests).
   */
  prefetch?: boolean | string[];
}

function stageDef(name: string): StageDef {
  const def = STAGES.find((s) => s.name === name);
  if (!def) throw new Error(`unknown stage "${name}"`);
  return def;
}

/**
 * Make stage `name` current for `profile`: bring its upstream stages up to
 * date first, then, under the stage's lock, skip it when its stamp matches
 * the fingerprint of its inputs, or run it and stamp its outputs. Every
 * caller (CLI, data loaders, tests) goes through here, so a stage computed
 * once is never computed again for the same inputs.
 */
export function ensureStage(
  name: string,
  profile: Profile,
  options: RunOptions = {},
  reports: StageReport[] = [],
): Promise<StageReport[]> {
  // Registered as a run of this profile first: another profile's run on the
  // same folder would interleave its stages with these.
  return withRunLock(profile, () => ensureStageLocked(name, profile, options, reports));
}

async function ensureStageLocked(
  name: string,
  profile: Profile,
  options: RunOptions,
  reports: StageReport[],
): Promise<StageReport[]> {
  const def = stageDef(name);
  for (const up of def.after) {
    if (!reports.some((r) => r.stage === up)) {
      await ensureStageLocked(up, profile, options, reports);
    }
  }
  const report = await withStageLock(def.name, async () => {
    const started = performance.now();
    const key = await fingerprint(await def.inputs(profile));
    const index = STAGES.indexOf(def) + 1;
    if (await isFresh(def.name, key)) {
      options.onStage?.(def.name, index, STAGES.length, true);
      return { stage: def.name, cached: true, seconds: 0 };
    }
    options.onStage?.(def.name, index, STAGES.length, false);
    const background = await startPrefetchFor(def, profile, options);
    try {
      await def.run(profile, options.quiet ?? false);
    } finally {
      const end = await background?.stop();
      if (end && !options.quiet) console.error(prefetchLine(end));
    }
    await writeStamp(def.name, key, await withParquetCopies(await def.outputs(profile)));
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    return { stage: def.name, cached: false, seconds };
  });
  reports.push(report);
  if (options.strict) await refuseRejects(def.name, options.quiet ?? false);
  return reports;
}

/**
 * Under --strict: a stage that lost a task (see `lostTasks`) stops the run,
 * its first such rejects shown.
 */
async function refuseRejects(stage: string, quiet: boolean): Promise<void> {
  const path = join(tablesDir(), `rejects_${stage}.arrow`);
  if (!(await fileExists(path))) return;
  const rows = await readTableRows(path, REJECTS);
  if (rows.length === 0) return;
  const ids = new Set(
    (await readTableRows(tablePath("tasks"), pick(TASKS, "task_id"))).map((t) => t.task_id),
  );
  const lost = lostTasks(rows, ids);
  if (lost.length === 0) return;
  if (!quiet) {
    for (const r of lost.slice(0, 5)) console.error(`  rejected: ${r.locator}: ${r.reason}`);
  }
  throw new UserError(`--strict: stage ${stage} lost ${summarizeRejects(lost)}`);
}

/** The stage's background prefetch, if it has one and the run allows it. */
async function startPrefetchFor(
  def: StageDef,
  profile: Profile,
  options: RunOptions,
): Promise<BackgroundPrefetch | undefined> {
  if (!def.prefetch || options.prefetch === false) return undefined;
  if (options.prefetch === undefined && Deno.env.get("EXECRET_PREFETCH") === "0") return undefined;
  const configs = await def.prefetch(profile);
  if (configs.length === 0) return undefined;
  return startBackgroundPrefetch(
    configs,
    Array.isArray(options.prefetch) ? options.prefetch : undefined,
  );
}

/** One progress line on how a background prefetch went. */
export function prefetchLine(end: PrefetchEnd): string {
  const how = end.error
    ? `failed (${end.error}); the embed stage embeds them itself`
    : end.finished
    ? "done"
    : "stopped";
  return `prefetch: ${end.texts} query texts embedded in the background, ${
    end.cpuSeconds.toFixed(1)
  } CPU s, ${how}`;
}

/** Run every stage of the pipeline in order for a profile. */
export function runPipeline(
  profile: Profile,
  options: RunOptions = {},
): Promise<StageReport[]> {
  return withRunLock(profile, async () => {
    // The whole effective profile, not just its name: a profile read from a
    // path, trimmed by --skip-unavailable or given other --source values must
    // be what the site's loaders recompute with.
    await atomicWrite(
      join(outDir(), "run.json"),
      JSON.stringify({ profile: profile.name, settings: profile }, null, 2) + "\n",
    );
    const reports: StageReport[] = [];
    await ensureStage(STAGES[STAGES.length - 1].name, profile, options, reports);
    return reports;
  });
}

/**
 * The profile the last `reproduce` used (recorded in out/run.json), so data
 * loaders run by the site build compute with the same settings. Only a
 * missing run.json means "no recorded profile" (the default one); a run.json
 * that cannot be read, is not JSON or names no known profile is a one-line
 * error naming the file, since computing under the wrong profile would give
 * tables that silently disagree with the run.
 */
export function currentProfile(): Profile {
  return withInvocations(readCurrentProfile());
}

/**
 * A profile whose configs come from the user's own invocation files makes
 * them this process's (and its children's) too, as `--invocations` did for
 * the run that recorded it.
 */
function withInvocations(profile: Profile): Profile {
  const files = new Set(userInvocationFiles());
  const missing = (profile.invocations ?? []).filter((f) => !files.has(f));
  if (missing.length > 0) {
    Deno.env.set("EXECRET_INVOCATIONS", [...files, ...missing].join(":"));
  }
  return profile;
}

function readCurrentProfile(): Profile {
  const env = Deno.env.get("EXECRET_PROFILE");
  if (env) return loadProfile(env);
  const path = join(outDir(), "run.json");
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return loadProfile("default");
    throw new UserError(`${path}: cannot read (${firstLine(e)})`);
  }
  let run: unknown;
  try {
    run = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${path}: not valid JSON (${firstLine(e)})`);
  }
  const settings = (run as { settings?: unknown } | null)?.settings;
  if (settings !== undefined) {
    if (settings === null || typeof settings !== "object" || Array.isArray(settings)) {
      throw new UserError(`${path}: field "settings" must be a profile object`);
    }
    return validateProfile(settings as Record<string, unknown>, `${path} (settings)`);
  }
  const name = (run as { profile?: unknown } | null)?.profile;
  if (typeof name !== "string" || name === "") {
    throw new UserError(
      `${path}: field "profile" must be a profile name, got ${JSON.stringify(name)}`,
    );
  }
  try {
    return loadProfile(name);
  } catch (e) {
    throw new UserError(`${path}: ${firstLine(e)}`);
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}

/** Which stage writes each table (from each stage's `tables`). */
export const TABLE_STAGE: Record<string, string> = Object.fromEntries(
  STAGES.flatMap((s) => s.tables.map((t) => [t, s.name])),
);
