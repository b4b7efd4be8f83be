import { tablePath } from "../io/paths.ts";

/**
 * The Arrow stream bytes of pipeline table `name`, for data loaders and
 * exports. Loaders call this rather than reading files themselves so that the
 * orchestrator can compute a missing table here (with the same stage
 * functions and cache as the CLI) instead of every loader doing it.
 */
export async function ensureTable(name: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(tablePath(name));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`${tablePath(name)}: table not found; run \`make reproduce\` first`);
    }
    throw e;
  }
}
