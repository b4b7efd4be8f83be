import { join } from "node:path";

/**
 * Where generated files go. `EXECRET_OUT` moves the whole output tree, which
 * tests use to run the pipeline in a temporary folder without touching `out/`.
 */
export function outDir(): string {
  return Deno.env.get("EXECRET_OUT") ?? "out";
}

/** Folder of the pipeline's Arrow stream tables. */
export function tablesDir(): string {
  return join(outDir(), "tables");
}

/** Folder of the Parquet copies of the tables. */
export function parquetDir(): string {
  return join(outDir(), "parquet");
}

/** Folder of per-config embedding files. */
export function embeddingsDir(): string {
  return join(outDir(), "embeddings");
}

/** Folder of caches (downloads, execution outcomes, vectors). */
export function cacheDir(): string {
  return Deno.env.get("EXECRET_CACHE") ?? join(outDir(), "cache");
}

/** Path of one table's Arrow stream file. */
export function tablePath(name: string): string {
  return join(tablesDir(), `${name}.arrow`);
}
