/**
 * The run's provenance for the Overview page, as JSON on stdout: the
 * orchestrator's `manifest.json` (null when the run has none), its SHA-256 and
 * modification time, and the invocation table (data/invocations.json).
 *
 *   deno run -A loaders/run_info.ts > run.json
 */
import { join } from "node:path";
import { sha256Hex } from "../src/io/hash.ts";
import { outDir } from "../src/io/paths.ts";
import { writeAll } from "./_stdout.ts";

export interface RunInfo {
  manifest: Record<string, unknown> | null;
  manifest_sha256: string | null;
  manifest_time: string | null;
  invocations: Record<string, unknown>[];
}

/** Read the run's manifest (if any) and the invocation table. */
export async function runInfo(): Promise<RunInfo> {
  let manifest = null, sha = null, time = null;
  try {
    const path = join(outDir(), "manifest.json");
    const bytes = await Deno.readFile(path);
    manifest = JSON.parse(new TextDecoder().decode(bytes));
    sha = sha256Hex(bytes);
    time = (await Deno.stat(path)).mtime?.toISOString() ?? null;
  } catch {
    // No manifest: the pages say so.
  }
  let invocations: Record<string, unknown>[] = [];
  try {
    const url = new URL("../data/invocations.json", import.meta.url);
    invocations = JSON.parse(await Deno.readTextFile(url)).invocations ?? [];
  } catch {
    // No invocation table in this checkout.
  }
  return {
    manifest,
    manifest_sha256: sha,
    manifest_time: time,
    invocations,
  };
}

if (import.meta.main) {
  await writeAll(new TextEncoder().encode(JSON.stringify(await runInfo())));
}
