/** The CLI's `reproduce` as the pipeline tests drive it: a child process with its own out folder. */

import { join } from "node:path";

const MAIN = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const QUICK = new URL("../../data/profiles/quick.json", import.meta.url);
const BUILTIN = new URL("../../data/builtin_tasks.jsonl", import.meta.url);

/**
 * Write under `root` the first `tasks` built-in tasks (a `jsonl:` source) and
 * the quick profile over them, with `overrides` (a name, configs, ...); the
 * profile's path.
 */
export async function quickSubsetProfile(
  root: string,
  tasks: number,
  overrides: Record<string, unknown> & { name: string },
): Promise<string> {
  const source = join(root, "tasks.jsonl");
  const lines = (await Deno.readTextFile(BUILTIN)).split("\n").filter((l) => l.trim() !== "");
  await Deno.writeTextFile(source, lines.slice(0, tasks).join("\n") + "\n");
  const quick = JSON.parse(await Deno.readTextFile(QUICK));
  const profile = join(root, `${overrides.name}.json`);
  await Deno.writeTextFile(
    profile,
    JSON.stringify({ ...quick, sources: [`jsonl:${source}`], ...overrides }),
  );
  return profile;
}

/**
 * Start `execret reproduce --profile <profile>` writing to `out`, with
 * frequent progress lines; with `--no-site` unless `site` is set (then the
 * profile's own `site` decides, as for a user).
 */
export function reproduce(out: string, profile: string, site = false): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-worker-options", "--cached-only", MAIN, "reproduce"]
      .concat(["--profile", profile], site ? [] : ["--no-site"]),
    // No EXECRET_* variable but these: a test earlier in the same process
    // may have set one, and the child would inherit it.
    clearEnv: true,
    env: {
      ...withoutKitVariables(Deno.env.toObject()),
      EXECRET_OUT: out,
      EXECRET_CACHE: `${out}/cache`,
      EXECRET_PROGRESS_SECONDS: "0.2",
      EXECRET_QUIET: "0",
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
