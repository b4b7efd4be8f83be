/**
 * The run's provenance for the Overview page (`data/run.json`): the
 * orchestrator's `manifest.json` (null only when the run has none: the page
 * then says so in words; a malformed one is an error naming it), its SHA-256 and
 * modification time, and the invocation table (data/invocations.json).
 */
import { join } from "node:path";
import { sha256Hex } from "../io/hash.ts";
import { outDir } from "../io/paths.ts";

export interface RunInfo {
  manifest: Record<string, unknown> | null;
  manifest_sha256: string | null;
  manifest_time: string | null;
  invocations: Record<string, unknown>[];
  /**
   * Where the repository's files can be read, a path appended
   * (`EXECRET_SOURCE_URL`, else GitHub Actions' own repository at the
   * commit being built); null: the site shows repository paths as text.
   */
  source_url: string | null;
}

/** {@link RunInfo.source_url} from the environment. */
export function sourceUrl(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): string | null {
  if (env.EXECRET_SOURCE_URL) return env.EXECRET_SOURCE_URL;
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_SHA: sha } = env;
  return server && repo && sha ? `${server}/${repo}/blob/${sha}` : null;
}

/** Read the run's manifest (if any) and the invocation table. */
export async function runInfo(): Promise<RunInfo> {
  let manifest = null, sha = null, time = null;
  const path = join(outDir(), "manifest.json");
  let bytes: Uint8Array | null = null;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    // No manifest (e.g. `make site` before any reproduce): the Overview says so in words.
    // Any other failure is an error: a page must not claim "no manifest" for a broken one.
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  if (bytes) {
    try {
      manifest = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw new Error(`${path}: not valid JSON (${(e as Error).message.split("\n")[0]})`);
    }
    sha = sha256Hex(bytes);
    time = (await Deno.stat(path)).mtime?.toISOString() ?? null;
  }
  let invocations: Record<string, unknown>[] = [];
  try {
    const url = new URL("../../data/invocations.json", import.meta.url);
    invocations = JSON.parse(await Deno.readTextFile(url)).invocations ?? [];
  } catch {
    // No invocation table in this checkout.
  }
  return {
    manifest,
    manifest_sha256: sha,
    manifest_time: time,
    invocations,
    source_url: sourceUrl(),
  };
}
