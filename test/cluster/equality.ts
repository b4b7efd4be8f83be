/**
 * The harness behind the cluster equality tests and scripts/equality_check.ts:
 * REFERENCE.md's Slurm recipe run as written on a one-node cluster, the same
 * inputs run on one machine, and a oracle run beside CPU hogs, each in an
 * output folder of its own, for test/cluster/compare_outputs.ts to compare.
 *
 * Every command runs as a user's would: the `execret` launcher of
 * scripts/install_execret.sh on PATH, from a work folder outside the
 * checkout, with a cleared environment (PATH, HOME, NO_COLOR, and only the
 * variables named here), so nothing of the caller's EXECRET_OUT or
 * EXECRET_CACHE leaks in.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import { seedSnapshot } from "../../src/oracle/pool.ts";
import { type SlurmCluster, slurmCommand } from "./slurm_cluster.ts";

export const ROOT = new URL("../../", import.meta.url).pathname;
/** The committed task set of the cluster tests (test/fixtures/cluster/README.md). */
export const FIXTURE = join(ROOT, "test", "fixtures", "cluster", "tasks.jsonl");
/** The per-test timeout of the load comparison on the fixture (its README says why). */
export const LOAD_TIMEOUT_MS = 400;

/** Where the Slurm recipe sits in REFERENCE.md: the sh block of the Slurm bullet. */
const SLURM_BULLET = "- **Slurm**";

/**
 * The Slurm recipe of REFERENCE.md's "Running on many machines": the first
 * sh block after the section's Slurm bullet, dedented (it is indented under
 * the bullet), as a user would save it to slurm.sh.
 */
export function slurmRecipe(reference?: string): string {
  const text = reference ?? Deno.readTextFileSync(join(ROOT, "REFERENCE.md"));
  const section = text.slice(text.indexOf("## Running on many machines"));
  const end = section.indexOf("\n## ", 3);
  const body = end < 0 ? section : section.slice(0, end);
  const at = body.indexOf(SLURM_BULLET);
  if (at < 0) {
    throw new Error(`REFERENCE.md: no "${SLURM_BULLET}" bullet in "Running on many machines"`);
  }
  const m = /\n( *)```sh\n([\s\S]*?)\n *```/.exec(body.slice(at));
  if (!m) throw new Error("REFERENCE.md: the Slurm bullet has no sh block");
  const indent = m[1].length;
  return m[2].split("\n").map((l) => l.slice(Math.min(indent, l.search(/\S|$/)))).join("\n") +
    "\n";
}

/** Install the `execret` launcher into `prefix`; its bin folder. */
export async function installExecret(prefix: string): Promise<string> {
  const r = await new Deno.Command("sh", {
    args: [join(ROOT, "scripts", "install_execret.sh"), Deno.execPath(), prefix],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (r.code !== 0) {
    throw new Error(`install_execret.sh: ${new TextDecoder().decode(r.stderr).trim()}`);
  }
  return join(prefix, "bin");
}

/** What a command said and how it ended. */
export interface Said {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The variables passed through to every command when set: the input mirrors
 * (made absolute, as the commands run in other folders) and malloc tuning.
 */
const PASSED = ["EXECRET_MIRROR", "EXECRET_RELEASE_MIRROR", "GLIBC_TUNABLES"];
const PATHS = new Set(["EXECRET_MIRROR", "EXECRET_RELEASE_MIRROR"]);

/** Runs `sh -c script` in `cwd` with `bin` first on PATH and a cleared environment. */
export function shellIn(
  cwd: string,
  bin: string,
  env: Record<string, string> = {},
): (script: string, args?: string[], extra?: Record<string, string>) => Promise<Said> {
  const base: Record<string, string> = {
    PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    HOME: Deno.env.get("HOME") ?? cwd,
    NO_COLOR: "1",
  };
  for (const name of PASSED) {
    const v = Deno.env.get(name);
    if (v !== undefined) base[name] = PATHS.has(name) && !isAbsolute(v) ? resolve(v) : v;
  }
  return async (script, args = [], extra = {}) => {
    const r = await new Deno.Command("sh", {
      args: ["-c", script, "sh", ...args],
      cwd,
      clearEnv: true,
      env: { ...base, ...env, ...extra },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: r.code, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr) };
  };
}

/** Throw with the command's last output unless it succeeded; its output. */
export function ok(what: string, said: Said): string {
  if (said.code !== 0) {
    throw new Error(
      `${what}: exit ${said.code}\n${
        (said.stdout + said.stderr).split("\n").slice(-30).join("\n")
      }`,
    );
  }
  return said.stdout + said.stderr;
}

/** `--source` flags for task sources (`builtin`, `jsonl:FILE`, ...). */
export function sourceFlags(sources: readonly string[]): string[] {
  return sources.flatMap((s) => ["--source", s]);
}

/**
 * Give each cache folder the Pyodide memory snapshot (it holds no result),
 * so every shard and run does not spend ~7 CPU-s making the same file.
 */
export async function seedSnapshots(caches: readonly string[]): Promise<void> {
  for (const c of caches) await seedSnapshot(c);
}

/** The outcome of the Slurm recipe. */
export interface RecipeRun {
  /** The recipe script's own output (the final job's id last). */
  submitted: string;
  /** The id of the last job of the chain. */
  finalJob: string;
  /** Each job's output file (`slurm-<job>[_<task>].out`) by name. */
  jobOutputs: Record<string, string>;
  /** Seconds from submission to the end of the final job. */
  seconds: number;
}

const ENDED =
  /^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED|DEADLINE|BOOT_FAIL)/;

/** Every `slurm-*.out` of `dir` by name. */
async function jobOutputsIn(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && /^slurm-.*\.out$/.test(e.name)) {
      out[e.name] = await Deno.readTextFile(join(dir, e.name));
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The job outputs' last lines each, for a failure message. */
export function tails(outputs: Record<string, string>, lines = 8): string {
  return Object.entries(outputs).map(([name, text]) =>
    `--- ${name}\n${text.trimEnd().split("\n").slice(-lines).join("\n")}`
  ).join("\n");
}

/**
 * Run REFERENCE.md's Slurm recipe as written (`sh slurm.sh <source flags>`
 * with N shards of C CPUs) in `work` against `cluster`, then wait for the chain's last
 * job. Throws, with every job's output and the daemons' logs, unless it
 * completed within `deadlineMs`.
 */
export async function runSlurmRecipe(opts: {
  cluster: SlurmCluster;
  work: string;
  bin: string;
  sources: readonly string[];
  shards: number;
  /** CPUs per shard (the recipe's C; default 1). */
  cpusPerShard?: number;
  deadlineMs?: number;
  recipe?: string;
}): Promise<RecipeRun> {
  const recipe = opts.recipe ?? slurmRecipe();
  await Deno.writeTextFile(join(opts.work, "slurm.sh"), recipe);
  const sh = shellIn(opts.work, opts.bin, opts.cluster.env);
  const t0 = performance.now();
  const said = await sh(
    'exec sh slurm.sh "$@"',
    sourceFlags(opts.sources),
    { N: String(opts.shards), C: String(opts.cpusPerShard ?? 1) },
  );
  const submitted = ok("the Slurm recipe (slurm.sh)", said);
  const finalJob = said.stdout.trim().split("\n").at(-1)?.split(";")[0] ?? "";
  if (!/^\d+$/.test(finalJob)) {
    throw new Error(`slurm.sh did not end with the final job's id:\n${submitted}`);
  }
  const deadline = Date.now() + (opts.deadlineMs ?? 300_000);
  let state = "";
  while (Date.now() < deadline) {
    const line = await slurmCommand(opts.cluster.env, "scontrol", ["show", "job", "-o", finalJob]);
    state = /JobState=(\S+)/.exec(line)?.[1] ?? "";
    if (ENDED.test(state)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (performance.now() - t0) / 1000;
  const jobOutputs = await jobOutputsIn(opts.work);
  if (state !== "COMPLETED") {
    throw new Error(
      `the recipe's final job ${finalJob} ended ${state || "(no state)"} ` +
        `${ENDED.test(state) ? "" : `or not within ${opts.deadlineMs ?? 300_000} ms `}` +
        `after ${seconds.toFixed(0)} s\n${tails(jobOutputs)}\n${await opts.cluster.logs()}`,
    );
  }
  return { submitted, finalJob, jobOutputs, seconds };
}

/**
 * The one-machine run of the same inputs: `execret tasks`, `mutate`, then
 * `oracle` and `embed` for each config, unsharded, in `work` (its outputs in
 * `work/out`); what each command said.
 */
export async function runOneMachine(opts: {
  work: string;
  bin: string;
  sources: readonly string[];
  configs: readonly string[];
  oracleFlags?: readonly string[];
}): Promise<string[]> {
  const sh = shellIn(opts.work, opts.bin);
  const said: string[] = [];
  said.push(ok("execret tasks", await sh('execret tasks "$@"', sourceFlags(opts.sources))));
  said.push(ok("execret mutate", await sh("execret mutate")));
  said.push(ok("execret oracle", await sh('execret oracle "$@"', [...(opts.oracleFlags ?? [])])));
  for (const config of opts.configs) {
    said.push(ok(`execret embed --config ${config}`, await sh(`execret embed --config ${config}`)));
  }
  return said;
}

/** CPU-bound processes that spin until stopped (or until this process dies). */
export interface Hogs {
  count: number;
  /** Their process ids. */
  pids: number[];
  stop(): Promise<void>;
}

/**
 * Start `count` CPU hogs: Deno processes that spin, yielding every 20 ms
 * only to notice that their stdin (a pipe from this process) has closed,
 * when they exit; so a test that dies leaves none behind. Each also exits
 * after `maxMs` whatever happens.
 */
export function startHogs(count: number, maxMs = 30 * 60_000): Hogs {
  const code = `
    const end = Date.now() + ${maxMs};
    let closed = false;
    (async () => { for await (const _ of Deno.stdin.readable) { /* nothing is sent */ } closed = true; })();
    let x = 0;
    while (!closed && Date.now() < end) {
      const slice = performance.now() + 20;
      while (performance.now() < slice) x = (x + 1) % 1000003;
      await new Promise((r) => setTimeout(r, 0));
    }
    Deno.exit(0);`;
  const hogs = Array.from({ length: count }, () =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn());
  let ended = 0;
  for (const h of hogs) h.status.then(() => ended++);
  return {
    count,
    pids: hogs.map((h) => h.pid),
    async stop() {
      // A hog that ended before its time means the run was not loaded as said.
      const early = ended;
      for (const h of hogs) {
        try {
          h.kill("SIGKILL");
        } catch { /* already ended */ }
        await h.status;
        await h.stdin.close().catch(() => {});
      }
      if (early > 0) {
        throw new Error(`${early} of ${count} CPU hogs ended before they were stopped`);
      }
    },
  };
}

/** A number of the machine's cores (the oracle's default worker count). */
export const CORES = navigator.hardwareConcurrency ?? 1;

/** The two runs of a load comparison: their out folders and what each said. */
export interface QuietAndLoaded {
  quiet: string;
  loaded: string;
  said: Record<string, string[]>;
}

/**
 * `run` in a work folder of its own for the quiet run and then the loaded
 * one (`quiet`, `loaded` under `root`, Pyodide's snapshot seeded in each
 * one's cache); `run` returns what its commands said.
 */
async function quietThenLoaded(
  root: string,
  run: (work: string, loaded: boolean) => Promise<string[]>,
): Promise<QuietAndLoaded> {
  const said: Record<string, string[]> = {};
  const runs = { quiet: join(root, "quiet"), loaded: join(root, "loaded") };
  for (const [name, work] of Object.entries(runs)) {
    await Deno.mkdir(work, { recursive: true });
    await seedSnapshots([join(work, "out", "cache")]);
    said[name] = await run(work, name === "loaded");
  }
  return { quiet: join(runs.quiet, "out"), loaded: join(runs.loaded, "out"), said };
}

/**
 * The load comparison's two oracle runs of the same inputs, one quiet and
 * one with `3 × cores` workers beside `hogs` CPU hogs, each in a work folder
 * of its own (`quiet/out`, `loaded/out` under `root`): `execret tasks`,
 * `mutate`, then `oracle --timeout-ms T` (and `--workers 3n` loaded).
 */
export function runQuietAndLoaded(opts: {
  root: string;
  bin: string;
  sources: readonly string[];
  timeoutMs: number;
  hogs?: number;
  extraOracleFlags?: readonly string[];
}): Promise<QuietAndLoaded> {
  return quietThenLoaded(opts.root, async (work, loaded) => {
    const oracleFlags = [
      "--timeout-ms",
      String(opts.timeoutMs),
      ...(loaded ? ["--workers", String(3 * CORES)] : []),
      ...(opts.extraOracleFlags ?? []),
    ];
    const sh = shellIn(work, opts.bin);
    const said = [ok("execret tasks", await sh('execret tasks "$@"', sourceFlags(opts.sources)))];
    said.push(ok("execret mutate", await sh("execret mutate")));
    const hogs = loaded ? startHogs(opts.hogs ?? 3) : null;
    try {
      said.push(ok("execret oracle", await sh('execret oracle "$@"', oracleFlags)));
    } finally {
      await hogs?.stop();
    }
    return said;
  });
}

/**
 * The load comparison of a whole profile through `execret reproduce
 * --profile P --no-site`, quiet and beside `hogs` CPU hogs (reproduce takes
 * no worker count: the oracle has one worker per core in both), each in a
 * work folder of its own under `root`: for a profile whose oracle only
 * reproduce runs (a release profile's re-executes the released pool).
 */
export function runReproduceQuietAndLoaded(opts: {
  root: string;
  bin: string;
  profile: string;
  hogs?: number;
  flags?: readonly string[];
}): Promise<QuietAndLoaded> {
  return quietThenLoaded(opts.root, async (work, loaded) => {
    const hogs = loaded ? startHogs(opts.hogs ?? 3) : null;
    try {
      const sh = shellIn(work, opts.bin);
      return [
        ok(
          "execret reproduce",
          await sh('execret reproduce --no-site "$@"', [
            "--profile",
            opts.profile,
            ...(opts.flags ?? []),
          ]),
        ),
      ];
    } finally {
      await hogs?.stop();
    }
  });
}
