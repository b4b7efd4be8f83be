/**
 * The end of `reproduce` writes the manifest before it builds the site, so a
 * cold run's site shows its own provenance; the site's files are then listed
 * in out/site_manifest.json without changing the manifest the site shows.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../../io/hash.ts";
import { loadProfile } from "../../pipeline/profile.ts";
import { withParquetCopies, writeStamp } from "../../pipeline/stamp.ts";
import { tablePath } from "../../io/paths.ts";
import { type RunInfo, runInfo } from "../../site/run_info.ts";
import { makeFixtureRunInProcess } from "../../../test/fixtures/run/fixture_process.ts";
import { finishRun } from "./reproduce.ts";
import { recordRun } from "../../pipeline/complete_run.ts";

Deno.test({
  name: "reproduce writes the manifest before the site build, and lists the site after it",
  sanitizeResources: false,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "execret-finish-" });
    await makeFixtureRunInProcess(out);
    // A cold run: the stages wrote their tables, nothing has written a manifest yet.
    await Deno.remove(join(out, "manifest.json"));
    Deno.env.set("EXECRET_OUT", out);
    const site = join(out, "site");
    let seenBySite: RunInfo | null = null;
    let readOnly: boolean | undefined;
    const reports = [
      { stage: "tasks", cached: false, seconds: 1.25 },
      { stage: "stats", cached: true, seconds: 0 },
    ];
    // What those stages recorded they wrote; the fixture's other tables stand
    // for an earlier run's leftovers.
    await writeStamp("tasks", "fixture", await withParquetCopies([tablePath("tasks")]));
    const stats = ["metrics", "pairwise", "breakdowns"].map(tablePath);
    await writeStamp("stats", "fixture", await withParquetCopies(stats));
    await recordRun(loadProfile("quick"), reports, performance.now());
    const done = await finishRun({
      site: true,
      quiet: true,
      // What the Overview page's loader (`data/run.json`, src/site/run_info.ts) reads at build time.
      build: async (options) => {
        readOnly = options.readOnly;
        seenBySite = await runInfo();
        await Deno.mkdir(join(site, "_file"), { recursive: true });
        await Deno.writeTextFile(join(site, "index.html"), "<p>overview</p>");
        await Deno.writeTextFile(join(site, "_file", "run.json"), JSON.stringify(seenBySite));
        return site;
      },
    });
    const info = seenBySite as RunInfo | null;
    ok(info?.manifest, "the site build found the run's manifest");
    const manifest = info.manifest as {
      profile: { name: string };
      files: { path: string }[];
      versions: Record<string, string>;
      timings: Record<string, number>;
    };
    assertEquals(manifest.profile.name, "quick");
    assertEquals(manifest.files.map((f) => f.path), [
      "parquet/breakdowns.parquet",
      "parquet/metrics.parquet",
      "parquet/pairwise.parquet",
      "parquet/tasks.parquet",
      "tables/breakdowns.arrow",
      "tables/metrics.arrow",
      "tables/pairwise.arrow",
      "tables/tasks.arrow",
    ]);
    // Files no stage of the run wrote are gone, so nothing reads them as this run's.
    await Deno.stat(tablePath("corpus")).then(
      () => ok(false, "tables/corpus.arrow was not this run's and should be removed"),
      (e) => ok(e instanceof Deno.errors.NotFound),
    );
    ok(manifest.versions.deno, "tool versions listed");
    assertEquals(manifest.timings.tasks, 1.25);
    assertEquals(readOnly, true, "the site shows the manifest's tables, never recomputes them");

    // The manifest the site shows is the one the run leaves behind.
    const manifestSha = sha256Hex(await Deno.readFile(join(out, "manifest.json")));
    assertEquals(info.manifest_sha256, manifestSha);
    assertEquals(done.site, site);

    // The site's own files are listed afterwards, in a file of their own.
    const siteManifest = JSON.parse(await Deno.readTextFile(join(out, "site_manifest.json")));
    assertEquals(siteManifest.manifest_sha256, manifestSha);
    assertEquals(siteManifest.files.map((f: { path: string }) => f.path), [
      join("_file", "run.json"),
      "index.html",
    ]);
    assertEquals(
      siteManifest.files[1].sha256,
      sha256Hex(new TextEncoder().encode("<p>overview</p>")),
    );
    await Deno.remove(out, { recursive: true });
  },
});

Deno.test("with --no-site the manifest is still written and no site is listed", async () => {
  const out = await Deno.makeTempDir({ prefix: "execret-finish-" });
  await makeFixtureRunInProcess(out);
  await Deno.remove(join(out, "manifest.json"));
  Deno.env.set("EXECRET_OUT", out);
  await recordRun(loadProfile("quick"), [], performance.now());
  const done = await finishRun({
    site: false,
    quiet: true,
    build: () => Promise.reject(new Error("no site was asked for")),
  });
  assertEquals(done.site, null);
  ok((await Deno.stat(join(out, "manifest.json"))).isFile);
  await Deno.stat(join(out, "site_manifest.json")).then(
    () => ok(false, "no site_manifest.json without a site"),
    (e) => ok(e instanceof Deno.errors.NotFound),
  );
  await Deno.remove(out, { recursive: true });
});
