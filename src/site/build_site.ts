/**
 * Build the report site with no network: `make site`.
 *
 * 1. Fill Framework's npm cache from node_modules (src/site/fill_framework_cache.ts).
 * 2. Drop Framework's cached loader outputs: it reuses a cached output while
 *    the loader file is older than it, whatever the table it reads, so a new
 *    run (or another `EXECRET_OUT`) would otherwise show the old numbers.
 * 3. Make every loader's output in one process (src/site/prefill_site_data.ts)
 *    into that cache, so Framework starts no loader (one process per output
 *    costs ~0.3 CPU-s before any work); an output that fails there is left
 *    to Framework, which runs its loader and reports its error.
 * 4. Run `framework build` under Deno with net access limited to loopback.
 *    This is the guard: any request Framework makes to a CDN, the npm
 *    registry or DuckDB's extension host is a permission error, and the build
 *    fails (checked by test/site/offline_guard_test.ts). With internet the
 *    build is the same, since every file it needs is already in the cache.
 *
 * All four hold `<root>/.observablehq/build.lock` (src/site/build_lock.ts):
 * two builds of one checkout at once, say of two runs' out folders, wait for
 * each other instead of clearing each other's loader outputs.
 *
 * The data loaders run as child processes with their own permissions (see
 * `interpreters` in observablehq.config.ts).
 *
 * Usage: deno run -A src/site/build_site.ts [--root docs] [--config observablehq.config.ts] [--preview]
 *        deno run -A src/site/build_site.ts --run release=out-release --run regenerated=out
 * (with `--run`, one site of every run named: src/site/site_runs.ts)
 * (`--root` must match the config's `root`; it names the cache to fill.)
 * Environment: EXECRET_OUT (tables to show), EXECRET_SITE_OUT (output folder, default $EXECRET_OUT/site),
 * EXECRET_SITE_READ_ONLY=1 (show the tables as they are; by default a loader
 * first brings the stage that writes its table up to date, see src/site/table_source.ts).
 */
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { pinnedVersion } from "../io/pinned_version.ts";
import { withBuildLock } from "./build_lock.ts";
import { fillFrameworkCache } from "./fill_framework_cache.ts";
import { parseRun, type SiteRun, stageOf, stageRuns } from "./site_runs.ts";
import { writeFigures } from "./write_figures.ts";
import { outDir } from "../io/paths.ts";

const PREFILL = new URL("./prefill_site_data.ts", import.meta.url).pathname;

/**
 * Where the site is written: EXECRET_SITE_OUT (from `env`, else the
 * process's), else the run's own folder's `site/` (EXECRET_OUT, default out/),
 * as REFERENCE.md says.
 */
function siteOutDir(env: Record<string, string | undefined>): string {
  return env.EXECRET_SITE_OUT ?? Deno.env.get("EXECRET_SITE_OUT") ??
    join(env.EXECRET_OUT ?? outDir(), "site");
}
/**
 * Whether `root` has data loaders (`data/*.ts`): the pages' root does; the
 * staged root of a site of several runs holds their outputs as plain files.
 */
function hasLoaders(root: string): boolean {
  try {
    return [...Deno.readDirSync(join(root, "data"))].some((e) =>
      e.isFile && e.name.endsWith(".ts")
    );
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** Framework as pinned in deno.json. */
const FRAMEWORK = `npm:@observablehq/framework@${pinnedVersion("@observablehq/framework")}`;

/** Cache folders that are inputs (npm, DuckDB), not loader outputs. */
const KEEP = new Set(["_npm", "_duckdb", "_jsr", "_node"]);

/** Remove Framework's cached loader outputs under `<root>/.observablehq/cache`. */
export async function clearLoaderCache(root: string): Promise<void> {
  const cache = join(root, ".observablehq", "cache");
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(cache)];
  } catch {
    return;
  }
  for (const e of entries) {
    if (!KEEP.has(e.name)) await Deno.remove(join(cache, e.name), { recursive: true });
  }
}

/**
 * Empty the output folder of an earlier build. Framework only clears an
 * output inside the working directory and fails on leftovers elsewhere; a
 * folder that is not a Framework build (no `_observablehq/`) is never removed.
 */
export async function clearOutput(output: string): Promise<void> {
  try {
    Deno.statSync(join(output, "_observablehq"));
  } catch {
    return;
  }
  await Deno.remove(output, { recursive: true });
}

/** The permission flags Framework's build runs with: everything but the network, bar loopback. */
export const GUARDED_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
  "--allow-net=127.0.0.1,localhost",
  "--no-prompt",
];

/** Options of {@link buildSite}. */
export interface BuildOptions {
  /** Framework root whose cache to fill and clear; must match the config's `root` (default docs). */
  root?: string;
  /** Config file (default observablehq.config.ts). */
  config?: string;
  /** Extra environment for Framework and its loaders, e.g. EXECRET_OUT, EXECRET_SITE_OUT. */
  env?: Record<string, string>;
  /** Capture Framework's output instead of printing it. */
  quiet?: boolean;
}

/**
 * Build the site; resolves to Framework's exit code (and its output when
 * quiet). Builds of one root run one at a time (build_lock.ts): they share
 * its cache of loader outputs.
 */
export function buildSite(options: BuildOptions = {}): Promise<{ code: number; output: string }> {
  const root = options.root ?? "docs";
  return withBuildLock(
    root,
    () => buildUnlocked(root, options),
    () => console.error(`site: waiting for another build of ${root}/ to finish`),
  );
}

/**
 * The first of `path` and its parent folders that exists, when that is not a
 * folder (so nothing can be written at `path`); undefined otherwise.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { join } from "node:path";
 * import { blockedBy } from "./build_site.ts";
 * const file = await Deno.makeTempFile();
 * strictEqual(blockedBy(join(file, "site")), file);
 * strictEqual(blockedBy(join(Deno.cwd(), "no-such-folder", "site")), undefined);
 * await Deno.remove(file);
 * ```
 */
export function blockedBy(path: string): string | undefined {
  for (let p = resolve(path);; p = dirname(p)) {
    try {
      return Deno.statSync(p).isDirectory ? undefined : p;
    } catch {
      // Not there (or under a file): its parent says.
    }
    if (dirname(p) === p) return undefined;
  }
}

async function buildUnlocked(
  root: string,
  options: BuildOptions,
): Promise<{ code: number; output: string }> {
  // Telemetry off: Framework would otherwise post usage events (a network request).
  const env: Record<string, string> = {
    ...options.env,
    NO_COLOR: "1",
    OBSERVABLE_TELEMETRY_DISABLE: "true",
  };
  // Framework's config reads the output folder from here (observablehq.config.ts).
  env.EXECRET_SITE_OUT = siteOutDir(env);
  // Said before the build, which would otherwise fail on it only when it
  // writes its first page, after ~20 CPU-s of work.
  const blocker = blockedBy(env.EXECRET_SITE_OUT);
  if (blocker !== undefined) {
    const output = `error: site output ${env.EXECRET_SITE_OUT}: ${blocker} is a file, not a folder`;
    if (!options.quiet) console.error(output);
    return { code: 1, output };
  }
  await fillFrameworkCache(root, { quiet: options.quiet });
  await clearLoaderCache(root);
  await clearOutput(env.EXECRET_SITE_OUT);
  // The loaders' outputs, made in one process (prefill_site_data.ts) with the
  // permissions and environment Framework would run them with.
  let prefillOutput = "";
  if (hasLoaders(root)) {
    const prefill = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--cached-only", PREFILL, "--root", root],
      stdout: options.quiet ? "piped" : "inherit",
      stderr: options.quiet ? "piped" : "inherit",
      env,
    });
    if (options.quiet) {
      const { stdout, stderr } = await prefill.output();
      prefillOutput = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    } else await prefill.spawn().status;
  }
  const args = [
    "run",
    ...GUARDED_PERMISSIONS,
    "--cached-only",
    FRAMEWORK,
    "build",
    // An explicit config is imported by Deno directly (the default lookup
    // would load tsx to compile it).
    "--config",
    options.config ?? "observablehq.config.ts",
  ];
  const command = new Deno.Command(Deno.execPath(), {
    args,
    stdout: options.quiet ? "piped" : "inherit",
    stderr: options.quiet ? "piped" : "inherit",
    env,
  });
  let code: number, output = "";
  if (!options.quiet) code = (await command.spawn().status).code;
  else {
    const done = await command.output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    code = done.code;
    output = prefillOutput + decode(done.stdout) + decode(done.stderr);
  }
  // One run's site (its loaders' outputs are in Framework's cache): its figures as files, in
  // the run's out/figures and beside its pages. A site of several runs writes each run's.
  if (code === 0 && hasLoaders(root)) {
    const site = siteOutDir(env);
    const out = env.EXECRET_OUT ?? outDir();
    await writeFigures(join(root, ".observablehq", "cache", "data"), [
      join(out, "figures"),
      join(site, "figures"),
    ]);
  }
  return { code, output };
}

/**
 * One site of several runs (src/site/site_runs.ts): stage their pages and
 * data beside the output, then build the staged root as {@link buildSite}
 * does. Resolves to Framework's exit code and, when quiet, the output.
 */
export async function buildRunsSite(
  runs: readonly SiteRun[],
  options: BuildOptions = {},
): Promise<{ code: number; output: string }> {
  const output = siteOutDir(options.env ?? {});
  const stage = stageOf(output);
  const staged = await stageRuns({
    root: options.root,
    stage,
    output,
    runs,
    env: options.env,
    quiet: options.quiet,
  });
  const built = await buildSite({ ...options, root: stage, config: staged.config });
  if (built.code === 0) {
    for (const run of runs) {
      await writeFigures(join(stage, run.name, "data"), [
        join(run.out, "figures"),
        join(output, run.name, "figures"),
      ]);
    }
  }
  return { code: built.code, output: staged.output + built.output };
}

/**
 * `make preview`: Framework's live preview server over the same filled cache
 * (preview needs plain -A: with the network denied it stops on a permission
 * check), after dropping stale loader outputs.
 */
export async function preview(root = "docs", config = "observablehq.config.ts"): Promise<number> {
  await fillFrameworkCache(root);
  await clearLoaderCache(root);
  const args = [
    "run",
    "-A",
    "--cached-only",
    FRAMEWORK,
    "preview",
    "--config",
    config,
    "--no-open",
  ];
  const env = { OBSERVABLE_TELEMETRY_DISABLE: "true" }; // Framework's telemetry posts usage events
  return (await new Deno.Command(Deno.execPath(), { args, env }).spawn().status).code;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      root: { type: "string" },
      config: { type: "string" },
      preview: { type: "boolean" },
      run: { type: "string", multiple: true },
    },
  });
  if (values.preview) {
    Deno.exit(await preview(values.root, values.config));
  }
  const { code } = values.run?.length
    ? await buildRunsSite(values.run.map(parseRun), { root: values.root })
    : await buildSite({ root: values.root, config: values.config });
  Deno.exit(code);
}
