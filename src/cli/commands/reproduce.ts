import { join } from "node:path";
import { type Command, parseFlags, printJson, UserError } from "../command.ts";
import { outDir, tablesDir } from "../../io/paths.ts";
import { loadProfile, type Profile } from "../../pipeline/profile.ts";
import { runPipeline, type StageReport } from "../../pipeline/run_pipeline.ts";
import {
  type Manifest,
  type SiteManifest,
  writeManifest,
  writeSiteManifest,
} from "../../pipeline/manifest.ts";
import { unavailableConfigs } from "../../pipeline/availability.ts";
import { headline, type HeadlineRow } from "../../pipeline/headline.ts";
import { buildSite } from "../../pipeline/build_site.ts";
import { ALL_CHECKS, runChecks } from "../../check/mod.ts";

/** `execret reproduce`: every stage of a profile in order, then the site. */
export const reproduceCommand: Command = {
  name: "reproduce",
  summary: "Run every stage of a profile, then build the site",
  help: `usage: execret reproduce [--profile NAME|PATH] [--source SOURCE]... [--skip-unavailable]
                         [--no-site] [--json]

Run the whole pipeline for a profile (data/profiles/<name>.json: default,
quick, paper): tasks → mutate → oracle → embed → score → stats, then write
out/manifest.json, build the report site into out/site (its Overview shows
that manifest) and list the site's files in out/site_manifest.json. Each stage is
skipped when its inputs, settings and code are unchanged since it last ran,
so a rerun recomputes nothing and a killed run resumes where it stopped.
It ends with the integrity audit of \`execret check\` and exits 1 if any fails.

  --profile NAME      profile name or path to a profile .json (default: default)
  --skip-unavailable  drop configs whose API key, server URL or model folder is
                      missing (they are named), instead of stopping
  --no-site           skip the site build (tables and manifest only)
  --source SOURCE     replace the profile's task sources (repeatable): builtin,
                      mbpp, humaneval, release (the profile's release, fetched),
                      release:DIR (a release bundle on disk), jsonl:FILE
  --json              print the stage reports and headline numbers as JSON`,
  async run(args) {
    const { values } = parseFlags(args, {
      profile: { type: "string" },
      "skip-unavailable": { type: "boolean" },
      "no-site": { type: "boolean" },
      source: { type: "string", multiple: true },
    });
    let profile = loadProfile(values.profile ?? "default");
    // --source replaces the profile's sources, e.g. the paper profile's
    // models on the paper's own tasks: --source release:DIR.
    if (values.source?.length) profile = { ...profile, sources: values.source };
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
    const reports = await runPipeline(profile, {
      quiet: values.json,
      onStage(stage, i, n, cached) {
        if (!values.json) console.error(`[${i}/${n}] ${stage}${cached ? ": up to date" : ""}`);
      },
    });
    const { site } = await finishRun(profile, reports, started, {
      site: profile.site && !values["no-site"],
      quiet: values.json,
    });
    const rows = await headline();
    // The run audits itself: a number printed below is one `execret check` vouches for.
    const checks = await runChecks(ALL_CHECKS);
    const failed = checks.filter((c) => !c.ok);
    if (values.json) {
      printJson({ profile: profile.name, stages: reports, headline: rows, site, checks });
    } else {
      printSummary(profile, reports, rows, site, (performance.now() - started) / 1000);
      console.log(
        failed.length === 0
          ? `\nexecret check: all ${checks.length} checks pass`
          : `\nexecret check: ${failed.map((c) => `FAIL ${c.name} — ${c.detail}`).join("\n")}`,
      );
    }
    return failed.length === 0 ? 0 : 1;
  },
};

/** Options for {@link finishRun}. */
export interface FinishOptions {
  /** Build the report site after the manifest. */
  site: boolean;
  quiet?: boolean;
  /** The site builder (default {@link buildSite}); resolves to the site's folder. */
  build?: (options: { quiet?: boolean; readOnly?: boolean }) => Promise<string>;
}

/**
 * The steps after the stages, in the order that lets the site show this
 * run's provenance: write out/manifest.json (tables, versions, stage
 * timings) first, then build the site (its Overview reads that manifest),
 * then list the site's own files in out/site_manifest.json.
 */
export async function finishRun(
  profile: Profile,
  reports: StageReport[],
  started: number,
  options: FinishOptions,
): Promise<{ manifest: Manifest; site: string | null; siteManifest: SiteManifest | null }> {
  const timings: Record<string, number> = Object.fromEntries(
    reports.map((r) => [r.stage, r.seconds]),
  );
  timings.total = seconds(started);
  const manifest = await writeManifest(profile, timings);
  if (!options.site) return { manifest, site: null, siteManifest: null };
  if (!options.quiet) console.error("[site] building the report");
  const t0 = performance.now();
  // Read-only: every stage has just run, so the site shows the manifest's tables as they are.
  const site = await (options.build ?? buildSite)({ quiet: options.quiet, readOnly: true });
  return { manifest, site, siteManifest: await writeSiteManifest(site, seconds(t0)) };
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 10) / 100;
}

function printSummary(
  profile: Profile,
  reports: StageReport[],
  rows: HeadlineRow[],
  site: string | null,
  total: number,
): void {
  console.log(`profile ${profile.name}: done in ${total.toFixed(1)} s`);
  for (const r of reports) {
    console.log(`  ${r.stage.padEnd(7)} ${r.cached ? "up to date" : `${r.seconds.toFixed(1)} s`}`);
  }
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
