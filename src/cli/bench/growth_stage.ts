/**
 * One pipeline stage in a process of its own, for `execret bench growth`:
 * `growth_stage.ts <profile.json> <stage>` with EXECRET_OUT set. The stages
 * before it are already current (the bench runs them in order), so only
 * this one computes, and the parent can take its peak memory from this
 * process tree alone. Prints the stage's report as one JSON line.
 */
import { loadProfile } from "../../pipeline/profile.ts";
import { ensureStage } from "../../pipeline/run_pipeline.ts";

if (import.meta.main) {
  const [profilePath, stage] = Deno.args;
  if (!profilePath || !stage) {
    console.error("usage: growth_stage.ts <profile.json> <stage>");
    Deno.exit(2);
  }
  const reports = await ensureStage(stage, loadProfile(profilePath), { quiet: true });
  const own = reports.find((r) => r.stage === stage)!;
  const stale = reports.filter((r) => r.stage !== stage && !r.cached).map((r) => r.stage);
  console.log(JSON.stringify({ ...own, upstream_ran: stale }));
}
