/**
 * The cluster tests' comparisons (test/cluster/) on a whole profile, for
 * inputs too big for `make test`: prints one line per compared file and a
 * verdict, exits 1 when any file differs.
 *
 *   deno run -A scripts/equality_check.ts --engine slurm --profile default
 *   deno run -A scripts/equality_check.ts --engine load --profile release
 *
 * - `--engine slurm`: REFERENCE.md's Slurm recipe, as written, on a
 *   one-node Slurm cluster (test/cluster/slurm_cluster.ts) with the
 *   profile's task sources as its arguments and N shards (`--shards`, of
 *   `--cpus` CPUs each: the machine's cores shared), then the same
 *   stage commands unsharded on one machine (`tasks`, `mutate`, `oracle`,
 *   `embed --config use`): every table, Parquet copy and embedding file
 *   compared. The recipe runs the stage commands' defaults (mutation seed,
 *   pyodide, 1000 ms per test, the kit's mutants as the pool), which are the
 *   default profile's; for a release profile it runs them on the release's
 *   tasks, since the release profile's own oracle (which re-executes the
 *   released pool) has no `--shard`.
 * - `--engine load`: the oracle quiet and beside CPU hogs. For a profile of
 *   mutants: `tasks`, `mutate`, `oracle --timeout-ms T` (the profile's, or
 *   `--timeout-ms`), loaded with `--workers 3n` and three hogs. For a release
 *   profile: `execret reproduce --profile P --no-site`, loaded with the hogs
 *   (reproduce takes no worker count), every table of the run compared.
 *
 * The default profile reads MBPP and HumanEval from `EXECRET_MIRROR` (or
 * downloads them); a release profile needs `EXECRET_RELEASE_MIRROR` (e.g.
 * `test/fixtures/release/paper`, the committed fixture bundle). Work folders
 * go to a temp folder (`--keep DIR` to choose and keep it), removed when
 * every file is the same.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { isAbsolute, join, resolve } from "node:path";
import { loadProfile, type Profile } from "../src/pipeline/profile.ts";
import { startSlurmCluster } from "../test/cluster/slurm_cluster.ts";
import {
  CORES,
  installExecret,
  runOneMachine,
  runQuietAndLoaded,
  runReproduceQuietAndLoaded,
  runSlurmRecipe,
  seedSnapshots,
} from "../test/cluster/equality.ts";
import { compareOutputs, formatVerdicts } from "../test/cluster/compare_outputs.ts";

const USAGE = `usage: deno run -A scripts/equality_check.ts --engine slurm|load --profile NAME|PATH
         [--shards N] [--cpus C] [--timeout-ms N] [--hogs N] [--keep DIR]`;

/** What the stage commands do when given no flag: the settings the Slurm recipe runs with. */
const STAGE_DEFAULTS = { mutation_seed: 20260510, runtime: "pyodide", timeout_ms: 1000 };

/** A profile's sources as `execret tasks` takes them (a bare `release` is the mirror's bundle). */
export function stageSources(profile: Profile, releaseMirror: string | undefined): string[] {
  return profile.sources.map((s) => {
    if (s !== "release") return s;
    if (!releaseMirror) {
      throw new Error(`profile ${profile.name} reads the release: set EXECRET_RELEASE_MIRROR`);
    }
    return `release:${resolve(releaseMirror)}`;
  });
}

/** Whether the profile's pool is a release's (its oracle runs only within reproduce). */
function readsRelease(profile: Profile): boolean {
  return profile.sources.some((s) => s === "release" || s.startsWith("release:"));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      engine: { type: "string" },
      profile: { type: "string" },
      shards: { type: "string", default: "2" },
      cpus: { type: "string" },
      "timeout-ms": { type: "string" },
      hogs: { type: "string", default: "3" },
      keep: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const engine = values.engine;
  if ((engine !== "slurm" && engine !== "load") || !values.profile) {
    console.error(USAGE);
    return 2;
  }
  const profileArg = values.profile.endsWith(".json") && !isAbsolute(values.profile)
    ? resolve(values.profile)
    : values.profile;
  const profile = loadProfile(profileArg);
  const root = values.keep
    ? resolve(values.keep)
    : await Deno.makeTempDir({ prefix: `execret-equality-${engine}-` });
  await Deno.mkdir(root, { recursive: true });
  const bin = await installExecret(join(root, "prefix"));
  const t0 = performance.now();
  let pair: { first: string; second: string; what: string };

  if (engine === "slurm") {
    const shards = Number(values.shards);
    // The shards share this machine's cores (the recipe's C).
    const cpus = Number(values.cpus ?? Math.max(1, Math.floor(CORES / shards)));
    const sources = stageSources(profile, Deno.env.get("EXECRET_RELEASE_MIRROR"));
    for (const [field, value] of Object.entries(STAGE_DEFAULTS)) {
      const own = (profile as unknown as Record<string, unknown>)[field];
      if (own !== value) {
        console.log(`note: profile ${profile.name} sets ${field} ${own}; the recipe runs ${value}`);
      }
    }
    if (readsRelease(profile)) {
      console.log(
        "note: the release profile's own oracle (the released pool) has no --shard; " +
          "the recipe runs the kit's oracle on the release's tasks",
      );
    }
    const sharded = join(root, "sharded"), single = join(root, "single");
    await Deno.mkdir(sharded, { recursive: true });
    await Deno.mkdir(single, { recursive: true });
    await seedSnapshots([
      ...Array.from({ length: shards }, (_, i) => join(sharded, `shard-${i}`)),
      join(sharded, "out", "cache"),
      join(single, "out", "cache"),
    ]);
    console.log(`slurm: ${sources.join(" ")}, ${shards} shards of ${cpus} CPUs, in ${root}`);
    const cluster = await startSlurmCluster();
    try {
      const run = await runSlurmRecipe({
        cluster,
        work: sharded,
        bin,
        sources,
        shards,
        cpusPerShard: cpus,
        deadlineMs: 4 * 3600_000,
      });
      console.log(`slurm: the recipe's chain took ${run.seconds.toFixed(0)} s`);
    } finally {
      await cluster.stop();
    }
    const t1 = performance.now();
    await runOneMachine({ work: single, bin, sources, configs: ["use"] });
    console.log(`one machine: ${((performance.now() - t1) / 1000).toFixed(0)} s`);
    pair = {
      first: join(single, "out"),
      second: join(sharded, "out"),
      what: "one machine vs Slurm recipe",
    };
  } else {
    const hogs = Number(values.hogs);
    if (readsRelease(profile)) {
      console.log(
        `load: execret reproduce --profile ${profileArg} --no-site, quiet vs ${hogs} hogs`,
      );
      const { quiet, loaded } = await runReproduceQuietAndLoaded({
        root,
        bin,
        profile: profileArg,
        hogs,
      });
      pair = { first: quiet, second: loaded, what: "quiet vs loaded (reproduce)" };
    } else {
      const timeoutMs = Number(values["timeout-ms"] ?? profile.timeout_ms);
      const sources = stageSources(profile, undefined);
      console.log(
        `load: oracle on ${sources.join(" ")}, ${timeoutMs} ms per test, quiet vs ` +
          `3×cores workers beside ${hogs} hogs`,
      );
      const { quiet, loaded } = await runQuietAndLoaded({
        root,
        bin,
        sources,
        timeoutMs,
        hogs,
        extraOracleFlags: ["--runtime", profile.runtime],
      });
      pair = { first: quiet, second: loaded, what: "quiet vs loaded" };
    }
  }

  const verdicts = await compareOutputs(pair.first, pair.second);
  console.log(formatVerdicts(verdicts));
  const differ = verdicts.filter((v) => !v.same);
  const took = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(
    `equality_check ${engine} on profile ${profile.name} (${pair.what}): ` +
      (differ.length === 0
        ? `all ${verdicts.length} files the same (${took} s)`
        : `${differ.length} of ${verdicts.length} files DIFFER (${took} s; runs kept in ${root})`),
  );
  if (differ.length === 0 && !values.keep) await Deno.remove(root, { recursive: true });
  return differ.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
