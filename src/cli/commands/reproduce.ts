import { join } from "node:path";
import { type Command, parseFlags, printJson } from "../command.ts";
import { UserError } from "../../io/user_error.ts";
import { runChecks } from "../../check/check.ts";
import { outDir, tablePath, tablesDir } from "../../io/paths.ts";
import { loadProfile, type Profile } from "../../pipeline/profile.ts";
import type { StageReport } from "../../pipeline/run_pipeline.ts";
import { type SiteManifest, writeSiteManifest } from "../../pipeline/manifest.ts";
import { completeRun } from "../../pipeline/complete_run.ts";
import { resolveSource } from "../../tasks/source_registry.ts";
import { userInvocationFiles } from "../../embed/invocations.ts";
import { pick, readTableRows } from "../../io/arrow_table.ts";
import { REJECTS, TASKS } from "../../tables/schema.ts";
import { lostTasks } from "../../tables/rejects.ts";
import { unavailableConfigs } from "../../pipeline/availability.ts";
import { headline, type HeadlineRow } from "../../pipeline/headline.ts";
import { buildRunSite } from "../../site/build_run_site.ts";
import { ALL_CHECKS } from "../../check/all_checks.ts";

/** `execret reproduce`: every stage of a profile in order, then the site. */
export const reproduceCommand: Command = {
  name: "reproduce",
  help: `usage: execret reproduce [--profile NAME|PATH] [--source SOURCE]... [--config NAME]...
                         [--invocations FILE]... [--skip-unavailable] [--strict]
                         [--no-site] [--json]

Run the whole pipeline for a profile (data/profiles/<name>.json: default,
quick, paper, extended, release): tasks → mutate → oracle → embed → score →
rerank → stats → compare, then write out/manifest.json from what the stages
recorded they wrote, remove what they did not (an earlier run's files), build
the report site into out/site (its Overview shows that manifest) and list the
site's files in out/site_manifest.json. Each stage is skipped when its inputs,
settings and code are unchanged since it last ran, so a rerun recomputes
nothing and a killed run resumes where it stopped. A run that fails puts the
last complete run back, so out/ never holds half of one. One output folder
runs one profile at a time: a run of another profile on a folder in use is
refused. It ends with the integrity audit of \`execret check\` and exits 1 if
any fails.

  --profile NAME      profile name or path to a profile .json (default: default)
  --skip-unavailable  drop configs whose API key, server URL or model folder is
                      missing (they are named), instead of stopping
  --strict            stop at the first stage that loses a task: a task row
                      rejected, a task with no mutation site, a canonical that
                      fails or is flaky (candidates the engine discards on its
                      way to the distractors do not count)
  --no-site           skip the site build (tables and manifest only)
  --config NAME       add a config to the profile's (repeatable), e.g. your own
                      model declared with --invocations
  --invocations FILE  your own configs, in the schema of data/invocations.json
                      (repeatable; also EXECRET_INVOCATIONS, colon-separated)
  --source SOURCE     replace the profile's task sources (repeatable): builtin,
                      mbpp, humaneval, release (the profile's release, fetched),
                      release:DIR (a release bundle on disk), jsonl:FILE
  --json              print the stage reports and headline numbers as JSON`,
  async run(args) {
    const { values } = parseFlags(args, {
      profile: { type: "string" },
      "skip-unavailable": { type: "boolean" },
      "no-site": { type: "boolean" },
      strict: { type: "boolean" },
      source: { type: "string", multiple: true },
      config: { type: "string", multiple: true },
    });
    let profile = loadProfile(values.profile ?? "default");
    // --source replaces the profile's sources, e.g. the paper profile's
    // models on the paper's own tasks: --source release:DIR.
    if (values.source?.length) profile = { ...profile, sources: values.source };
    // --config adds configs (e.g. the user's own model, from --invocations FILE).
    const added = (values.config ?? []).flatMap((c) => c.split(",")).filter((c) => c !== "");
    if (added.length > 0) {
      profile = {
        ...profile,
        configs: [...profile.configs, ...added.filter((c) => !profile.configs.includes(c))],
      };
    }
    // The user's invocation files are part of the run's settings (run.json),
    // so the site's loaders recompute with them too.
    const invocations = userInvocationFiles();
    if (invocations.length > 0) profile = { ...profile, invocations };
    // Every config known, and every source readable by name, before any work.
    // (A bare `release` is the profile's own release, located when the run starts.)
    for (const source of profile.sources) {
      if (source !== "release") resolveSource(source);
    }
    const missing = await unavailableConfigs(profile.configs);
    if (missing.length > 0) {
      const list = missing.map((m) => `${m.config} needs ${m.needs.join(" and ")}`).join("; ");
      if (!values["skip-unavailable"]) {
        throw new UserError(`profile ${profile.name}: ${list} (or pass --skip-unavailable)`);
      }
      console.error(`skipping unavailable configs: ${list}`);
      const drop = new Set(missing.map((m) => m.config));
      profile = { ...profile, configs: profile.configs.filter((c) => !drop.has(c)) };
      if (profile.configs.length === 0) throw new UserError("no config left to run");
    }
    const started = performance.now();
    const { reports, removed } = await completeRun(profile, {
      started,
      quiet: values.json,
      strict: values.strict,
      onStage(stage, i, n, cached) {
        if (!values.json) console.error(`[${i}/${n}] ${stage}${cached ? ": up to date" : ""}`);
      },
    });
    if (removed.length > 0 && !values.json) {
      console.error(
        `removed ${removed.length} file(s) an earlier run left in ${outDir()}: ${
          removed.slice(0, 4).join(", ")
        }${removed.length > 4 ? ", …" : ""}`,
      );
    }
    const { site } = await finishRun({
      site: profile.site && !values["no-site"],
      quiet: values.json,
    });
    const rows = await headline();
    const rejects = await rejectCounts();
    // The run audits itself: a number printed below is one `execret check` vouches for.
    const checks = await runChecks(ALL_CHECKS);
    const failed = checks.filter((c) => !c.ok);
    if (values.json) {
      printJson({ profile: profile.name, stages: reports, headline: rows, rejects, site, checks });
    } else {
      printSummary(profile, reports, rows, rejects, site, (performance.now() - started) / 1000);
      console.log(
        failed.length === 0
          ? `\nexecret check: all ${checks.length} checks pass`
          : `\nexecret check: ${failed.map((c) => `FAIL ${c.name} — ${c.detail}`).join("\n")}`,
      );
    }
    return failed.length === 0 ? 0 : 1;
  },
};

/** A run's rejects per stage: all of them, and those that cost a task (`lostTasks`). */
interface RejectCounts {
  total: Record<string, number>;
  lost: Record<string, number>;
}

async function rejectCounts(): Promise<RejectCounts> {
  const rows = await readTableRows(tablePath("rejects"), REJECTS);
  const ids = new Set(
    (await readTableRows(tablePath("tasks"), pick(TASKS, "task_id"))).map((t) => t.task_id),
  );
  const count = (list: readonly { stage: string }[]) => {
    const by: Record<string, number> = {};
    for (const r of list) by[r.stage] = (by[r.stage] ?? 0) + 1;
    return by;
  };
  return { total: count(rows), lost: count(lostTasks(rows, ids)) };
}

/** Options for {@link finishRun}. */
export interface FinishOptions {
  /** Build the report site. */
  site: boolean;
  quiet?: boolean;
  /** The site builder (default {@link buildRunSite}); resolves to the site's folder. */
  build?: (options: { quiet?: boolean; readOnly?: boolean }) => Promise<string>;
}

/**
 * After a complete run (its manifest written): build the site, whose
 * Overview reads that manifest, then list the site's own files in
 * out/site_manifest.json. A failed build is one line; the run's tables and
 * manifest stay, and so does the site of an earlier build (see buildRunSite).
 */
export async function finishRun(
  options: FinishOptions,
): Promise<{ site: string | null; siteManifest: SiteManifest | null }> {
  if (!options.site) return { site: null, siteManifest: null };
  if (!options.quiet) console.error("[site] building the report");
  const t0 = performance.now();
  // Read-only: every stage has just run, so the site shows the manifest's tables as they are.
  const site = await (options.build ?? buildRunSite)({ quiet: options.quiet, readOnly: true });
  return { site, siteManifest: await writeSiteManifest(site, seconds(t0)) };
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 10) / 100;
}

function printSummary(
  profile: Profile,
  reports: StageReport[],
  rows: HeadlineRow[],
  rejects: RejectCounts,
  site: string | null,
  total: number,
): void {
  console.log(`profile ${profile.name}: done in ${total.toFixed(1)} s`);
  const stageWidth = Math.max(...reports.map((r) => r.stage.length));
  for (const r of reports) {
    console.log(
      `  ${r.stage.padEnd(stageWidth)} ${r.cached ? "up to date" : `${r.seconds.toFixed(1)} s`}`,
    );
  }
  const list = (by: Record<string, number>) =>
    Object.entries(by).map(([stage, n]) => `${stage} ${n}`).join(", ") || "none";
  console.log(
    `inputs lost: ${list(rejects.lost)} (tasks rejected or dropped; --strict stops on one)`,
  );
  console.log(
    `rejects:  ${list(rejects.total)} (with candidates the engine discarded; ` +
      `execret sql "SELECT stage, reason, count(*) FROM rejects GROUP BY ALL")`,
  );
  console.log(`tables:   ${tablesDir()}/`);
  console.log(`manifest: ${join(outDir(), "manifest.json")}`);
  if (site) console.log(`site:     ${site}/ (make preview to serve it)`);
  console.log("");
  const header = [
    "config",
    "exec@1",
    "exec@10",
    "own-distractor rank-1 misses",
    "canonical below a distractor",
  ];
  const width = Math.max(header[0].length, ...rows.map((r) => r.config.length));
  console.log([header[0].padEnd(width), ...header.slice(1)].join("  "));
  for (const r of rows) {
    console.log(
      [
        r.config.padEnd(width),
        fmt(r.exec1).padStart(header[1].length),
        fmt(r.exec10).padStart(header[2].length),
        fmt(r.ownMissShare).padStart(header[3].length),
        fmt(r.belowShare).padStart(header[4].length),
      ].join("  "),
    );
  }
}

function fmt(v: number | null): string {
  return v === null || Number.isNaN(v) ? "-" : v.toFixed(3); // NaN: a reranked config lacks the metric
}
