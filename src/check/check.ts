import { join } from "node:path";
import { outDir } from "../io/paths.ts";
import { UserError } from "../io/user_error.ts";

/** The result of one integrity check. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** What was checked (counts), or the first problems found. */
  detail: string;
}

/** An integrity check over a finished run's outputs. */
export interface Check {
  name: string;
  run(): Promise<CheckResult>;
}

/** Build a result from a list of problems (empty means pass). */
export function verdict(name: string, problems: string[], checked: string): CheckResult {
  if (problems.length === 0) return { name, ok: true, detail: checked };
  const shown = problems.slice(0, 3).join("; ");
  const more = problems.length > 3 ? ` (+${problems.length - 3} more)` : "";
  return { name, ok: false, detail: `${shown}${more}` };
}

/** Run checks in order; a check that throws fails with its message. */
export async function runChecks(checks: Check[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      results.push(await check.run());
    } catch (e) {
      results.push({ name: check.name, ok: false, detail: (e as Error).message.split("\n")[0] });
    }
  }
  return results;
}

/** What a check needs of out/manifest.json: the files the run's stages wrote. */
export interface RunManifest {
  files: { path: string; sha256: string }[];
}

/** The run's manifest; a missing or unreadable one is a one-line error naming it. */
export async function readManifest(): Promise<RunManifest> {
  const path = join(outDir(), "manifest.json");
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new UserError(
      e instanceof Deno.errors.NotFound
        ? `${path}: no manifest (run \`execret reproduce\` first)`
        : `${path}: cannot read (${(e as Error).message})`,
    );
  }
  try {
    const manifest = JSON.parse(text) as RunManifest;
    if (!Array.isArray(manifest.files)) throw new Error('no "files" list');
    return manifest;
  } catch (e) {
    throw new UserError(`${path}: not a run manifest (${(e as Error).message})`);
  }
}
