import { join } from "node:path";
import { atomicWrite } from "../io/atomic_write.ts";
import { outDir } from "../io/paths.ts";
import { loadProfile, type Profile } from "./profile.ts";
import { withStageLock } from "./stage_lock.ts";
import { fingerprint, isFresh, writeStamp } from "./stamp.ts";
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
export async function ensureStage(
  name: string,
  profile: Profile,
  options: RunOptions = {},
  reports: StageReport[] = [],
): Promise<StageReport[]> {
  const def = stageDef(name);
  for (const up of def.after) {
    if (!reports.some((r) => r.stage === up)) await ensureStage(up, profile, options, reports);
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
    await def.run(profile, options.quiet ?? false);
    await writeStamp(def.name, key, await def.outputs(profile));
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    return { stage: def.name, cached: false, seconds };
  });
  reports.push(report);
  return reports;
}

/** Run every stage of the pipeline in order for a profile. */
export async function runPipeline(
  profile: Profile,
  options: RunOptions = {},
): Promise<StageReport[]> {
  await atomicWrite(join(outDir(), "run.json"), JSON.stringify({ profile: profile.name }) + "\n");
  const reports: StageReport[] = [];
  await ensureStage(STAGES[STAGES.length - 1].name, profile, options, reports);
  return reports;
}

/**
 * The profile the last `reproduce` used (recorded in out/run.json), so data
 * loaders run by the site build compute with the same settings.
 */
export function currentProfile(): Profile {
  const env = Deno.env.get("EXECRET_PROFILE");
  if (env) return loadProfile(env);
  try {
    const run = JSON.parse(Deno.readTextFileSync(join(outDir(), "run.json")));
    return loadProfile(run.profile);
  } catch {
    return loadProfile("default");
  }
}

/** Which stage writes each table. */
export const TABLE_STAGE: Record<string, string> = {
  tasks: "tasks",
  mutants: "mutate",
  executions: "oracle",
  execution_times: "oracle",
  queries: "oracle",
  corpus: "oracle",
  validation: "oracle",
  rankings: "score",
  per_query: "score",
  breakdowns: "stats",
  metrics: "stats",
  pairwise: "stats",
  rejects: "stats",
};
