import { tablePath } from "../io/paths.ts";

/**
 * The Arrow stream bytes of pipeline table `name`, for data loaders and
 * exports. It first makes the stage that writes the table current (with the
 * same stage functions, cache and locks as the CLI), so building the site
 * after `reproduce` recomputes nothing and building it alone computes only
 * what is missing.
 */
export async function ensureTable(name: string): Promise<Uint8Array> {
  // Imported lazily: the stages pull in every stage's dependencies.
  const { currentProfile, ensureStage, TABLE_STAGE } = await import("./run_pipeline.ts");
  const stage = TABLE_STAGE[name];
  if (!stage) throw new Error(`unknown table "${name}"`);
  await ensureStage(stage, currentProfile(), { quiet: true });
  return await Deno.readFile(tablePath(name));
}
