import { removeTempFiles } from "../io/atomic_write.ts";
import { outDir } from "../io/paths.ts";
import { UserError } from "../io/user_error.ts";
import { type Manifest, removeOtherOutputs, writeManifest } from "./manifest.ts";
import { dropPreviousRun, keepPreviousRun, restorePreviousRun } from "./previous_run.ts";
import type { Profile } from "./profile.ts";
import { whenAlone, withRunLock } from "./run_lock.ts";
import { type RunOptions, runPipeline, type StageReport } from "./run_pipeline.ts";

/** What {@link completeRun} leaves in the output folder. */
export interface CompletedRun {
  reports: StageReport[];
  manifest: Manifest;
  /** Files of an earlier run removed from the output folders (relative to out/). */
  removed: string[];
}

/**
 * Make the output folder hold one complete run of `profile`, or, if that
 * fails, the complete run it held before: every stage made current
 * ({@link runPipeline}), then `manifest.json` written from what the stages
 * recorded they wrote, and every other file in the output folders removed.
 * Before it starts, temp files of writes a kill interrupted are removed
 * (when no other run uses the folder). A failure puts the last complete run
 * back (previous_run.ts) and says so in its one-line message.
 */
export function completeRun(
  profile: Profile,
  options: RunOptions & { started?: number } = {},
): Promise<CompletedRun> {
  const started = options.started ?? performance.now();
  return withRunLock(profile, async () => {
    await whenAlone(() => removeTempFiles(outDir()));
    await keepPreviousRun();
    try {
      const reports = await runPipeline(profile, options);
      const done = await recordRun(profile, reports, started);
      await dropPreviousRun();
      return done;
    } catch (e) {
      const restored = await restorePreviousRun();
      if (restored && e instanceof UserError) {
        throw new UserError(
          `${e.message} (${outDir()} holds the last complete run again)`,
          e.exitCode,
        );
      }
      throw e;
    }
  });
}

/**
 * Write the manifest of a run whose stages are all current (`reports` lists
 * them) and remove from the output folders what they did not write.
 */
export async function recordRun(
  profile: Profile,
  reports: StageReport[],
  started: number,
): Promise<CompletedRun> {
  const timings: Record<string, number> = Object.fromEntries(
    reports.map((r) => [r.stage, r.seconds]),
  );
  timings.total = Math.round((performance.now() - started) / 10) / 100;
  const manifest = await writeManifest(profile, timings, reports.map((r) => r.stage));
  const removed = await removeOtherOutputs(manifest.files);
  return { reports, manifest, removed };
}
