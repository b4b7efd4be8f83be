/**
 * Run the site's data loaders (`<root>/data/<name>.<ext>.ts`) in ONE process
 * and put each one's output where Framework caches it
 * (`<root>/.observablehq/cache/data/<name>.<ext>`), so the build that follows
 * finds them fresh and starts no loader process of its own. Framework starts
 * one `deno run` per loader (observablehq.config.ts `interpreters`), ~0.3–0.4
 * CPU-s each before any work, and the site has ~28 of them.
 *
 * Every loader writes its output through src/site/stdout.ts `writeAll`, which
 * {@link captureOutput} redirects here, so the bytes are the ones the loader
 * would print. A loader that fails is left out: Framework then runs it itself
 * and reports its error as it always did. Framework uses a cached output
 * while it is newer than the loader file, and src/site/build_site.ts clears
 * these outputs before every build, so none outlives the build it was made for.
 *
 * Usage: deno run -A src/site/prefill_loaders.ts [--root docs] [--into DIR]
 * (run with the environment the loaders would get: EXECRET_OUT, …).
 */
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { captureOutput } from "./stdout.ts";
import { atomicWrite } from "../io/atomic_write.ts";

/** A loader's file name: `<name>.<ext>.ts`, serving `<name>.<ext>`. */
const LOADER = /^[^.]+\.[a-z0-9]+\.ts$/;

/** The loader files under `<root>/data`, by name. */
export function loaderFiles(root: string): string[] {
  try {
    return [...Deno.readDirSync(join(root, "data"))]
      .filter((e) => e.isFile && LOADER.test(e.name))
      .map((e) => join(root, "data", e.name))
      .sort();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

/** Where Framework caches the output of `loader` (a file under `root`). */
export function cachePathOf(root: string, loader: string): string {
  return join(root, ".observablehq", "cache", relative(root, loader).replace(/\.ts$/, ""));
}

/**
 * Run each loader under `root` in this process and write its output to
 * Framework's cache, or with `into` as a plain file there (`<into>/<name>.<ext>`:
 * a site of several runs gets each run's data as static files, see
 * src/site/site_runs.ts); resolves to the loaders prefilled and those that failed.
 */
export async function prefillLoaders(
  root: string,
  into?: string,
): Promise<{ filled: string[]; failed: string[] }> {
  const filled: string[] = [], failed: string[] = [];
  for (const loader of loaderFiles(root)) {
    const chunks: Uint8Array[] = [];
    captureOutput((bytes) => chunks.push(bytes));
    try {
      await import(new URL(`file://${Deno.realPathSync(loader)}`).href);
    } catch (e) {
      console.error(`prefill: ${relative(root, loader)}: ${(e as Error).message.split("\n")[0]}`);
      failed.push(loader);
      continue;
    } finally {
      captureOutput(undefined);
    }
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const path = into
      ? join(into, relative(join(root, "data"), loader).replace(/\.ts$/, ""))
      : cachePathOf(root, loader);
    await atomicWrite(path, bytes);
    filled.push(loader);
  }
  return { filled, failed };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { root: { type: "string" }, into: { type: "string" } },
  });
  const { failed } = await prefillLoaders(values.root ?? "docs", values.into);
  // Into a folder, no Framework runs a failed loader again to report it: fail here.
  if (values.into && failed.length) Deno.exit(1);
}
