/** The CLI's `reproduce` as the pipeline tests drive it: a child process with its own out folder. */

import { join } from "node:path";
import * as arrow from "apache-arrow";
import { ok } from "node:assert/strict";
import { sha256Hex } from "../../src/io/hash.ts";
import { processTree } from "../../src/cli/bench/growth_rss.ts";
import { measuredTables } from "../../src/tables/catalog.ts";
import { builtinTaskLines } from "../support/builtin_tasks.ts";

const MEASUREMENTS = new RegExp(`^(${measuredTables().join("|")})\\.`);

const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const QUICK = new URL("../../data/profiles/quick.json", import.meta.url);

/**
 * The per-test limit of the tests' runs over built-in tasks. Limits count a
 * test's CPU time (CONTRIBUTING, "Verdicts and the clock"), so a TIMEOUT
 * costs its whole limit in CPU: at the quick profile's 1,000 ms its 11
 * TIMEOUTs were half of a bm25-only run's CPU (17.8 CPU-s, 8.0 at 250 ms).
 * The built-in canonicals use at most 20 ms of CPU on Pyodide, and the quick
 * profile's queries, corpus and outcomes are the same at 250 ms as at
 * 1,000 ms (2026-12-07).
 */
export const TEST_TIMEOUT_MS = 250;

/**
 * Write under `root` the first `tasks` built-in tasks (a `jsonl:` source,
 * `<name>.jsonl`) and the quick profile over them (`<name>.json`) with the limit {@link TEST_TIMEOUT_MS}, and `overrides` (a name, configs, ...); the
 * profile's path.
 */
export async function quickSubsetProfile(
  root: string,
  tasks: number,
  overrides: Record<string, unknown> & { name: string },
): Promise<string> {
  const source = join(root, `${overrides.name}.jsonl`);
  const lines = await builtinTaskLines();
  await Deno.writeTextFile(source, lines.slice(0, tasks).join("\n") + "\n");
  const quick = JSON.parse(await Deno.readTextFile(QUICK));
  const profile = join(root, `${overrides.name}.json`);
  await Deno.writeTextFile(
    profile,
    JSON.stringify({
      ...quick,
      sources: [`jsonl:${source}`],
      timeout_ms: TEST_TIMEOUT_MS,
      ...overrides,
    }),
  );
  return profile;
}

/**
 * Start `execret reproduce --profile <profile>` writing to `out`, with
 * frequent progress lines; with `--no-site` unless `site` is set (then the
 * profile's own `site` decides, as for a user).
 */
export function reproduce(
  out: string,
  profile: string,
  site = false,
  extra: string[] = [],
): Deno.ChildProcess {
  return execret(out, [
    "reproduce",
    "--profile",
    profile,
    ...(site ? [] : ["--no-site"]),
    ...extra,
  ]);
}

/**
 * Start `execret <args>` on the out folder `out` (its cache inside it), as
 * `reproduce` does; `env` adds variables (EXECRET_RELEASE_MIRROR, keys).
 */
export function execret(
  out: string,
  args: string[],
  env: Record<string, string> = {},
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-worker-options", "--cached-only", MAIN, ...args],
    // No EXECRET_* variable but these: a test earlier in the same process
    // may have set one, and the child would inherit it.
    clearEnv: true,
    env: {
      ...withoutKitVariables(Deno.env.toObject()),
      EXECRET_OUT: out,
      EXECRET_CACHE: `${out}/cache`,
      EXECRET_PROGRESS_SECONDS: "0.2",
      EXECRET_QUIET: "0",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

function withoutKitVariables(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("EXECRET_")));
}

/** Wait for a run; its output, or an error with the output's end when it failed. */
export async function finish(child: Deno.ChildProcess): Promise<string> {
  const { code, stdout, stderr } = await child.output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`reproduce exited ${code}:\n${text.slice(-2000)}`);
  return text;
}

/** Run a command to its end: its exit code and its stdout and stderr together. */
export async function ended(child: Deno.ChildProcess): Promise<{ code: number; text: string }> {
  const { code, stdout, stderr } = await child.output();
  return { code, text: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

/**
 * sha256 of every table and embedding file, by path relative to out/. With
 * `sansMeasurements`, what records when or how fast work ran is left out —
 * an embedding file's `created_at` and the tables of measurements
 * (`measuredTables()`) — since a run that did the work at other times cannot
 * share it.
 */
export function digests(out: string, sansMeasurements = false): Record<string, string> {
  const result: Record<string, string> = {};
  for (const dir of ["tables", "parquet", "embeddings"]) {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = [...Deno.readDirSync(join(out, dir))];
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    const names = entries.filter((e) => e.isFile).map((e) => e.name).sort();
    for (const name of names) {
      if (sansMeasurements && MEASUREMENTS.test(name)) continue;
      let bytes: Uint8Array = Deno.readFileSync(join(out, dir, name));
      if (sansMeasurements && dir === "embeddings") bytes = withoutCreatedAt(bytes);
      result[`${dir}/${name}`] = sha256Hex(bytes);
    }
  }
  return result;
}

function withoutCreatedAt(bytes: Uint8Array): Uint8Array {
  const table = arrow.tableFromIPC(bytes);
  const metadata = new Map(table.schema.metadata);
  ok(metadata.delete("created_at"), "embedding files record created_at");
  const schema = new arrow.Schema(table.schema.fields, metadata);
  const batches = table.batches.map((b) => new arrow.RecordBatch(schema, b.data));
  return arrow.tableToIPC(new arrow.Table(schema, batches), "stream");
}

/** Whether `pid` is a process that still runs (a zombie no longer does). */
function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * SIGKILL a run and every process it started, as a job scheduler or the
 * OOM killer stops a job, and resolve once none of them runs. Killing the
 * run alone leaves its background prefetch (nice 19) to notice it was
 * orphaned only when it next gets a CPU, which on a loaded machine can be
 * minutes later, while the test already reuses or removes the folder.
 */
export async function killRun(child: Deno.ChildProcess): Promise<void> {
  // Stopped, the run starts no process while its tree is read.
  Deno.kill(child.pid, "SIGSTOP");
  const tree = processTree(child.pid);
  for (const pid of tree) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // ended meanwhile
    }
  }
  await child.status;
  while (tree.some(running)) await new Promise((r) => setTimeout(r, 50));
}
