/**
 * Run one data loader alone, as Framework runs it: its own `deno run`
 * process, on the run in `out`, read-only (no stage brought up to date).
 * For the tests that check loaders, or use their output, outside a site build.
 */
import { join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What a loader wrote and how it ended. */
export interface LoaderRun {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

/** Run `script` (relative to the project root) with `args`, reading the run in `out`. */
export async function runLoader(
  script: string,
  out: string,
  ...args: string[]
): Promise<LoaderRun> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", join(ROOT, script), ...args],
    env: { EXECRET_OUT: out, EXECRET_SITE_READ_ONLY: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, stdout, stderr: new TextDecoder().decode(stderr) };
}
