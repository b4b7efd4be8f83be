/**
 * Make every data file of the site (src/site/site_data.ts) and the pages made
 * by page loaders (the SQL console, src/site/sql_page.ts) in ONE process, and
 * put each where Framework caches its loader's output
 * (`<root>/.observablehq/cache/data/<name>`, `<root>/.observablehq/cache/sql.md`),
 * so the build that follows finds them fresh and starts no loader process of
 * its own. Framework starts one `deno run` per loader output
 * (observablehq.config.ts `interpreters`), ~0.3–0.4 CPU-s each before any
 * work, and the site has ~40 of them.
 *
 * A file whose making fails is left out: Framework then runs its loader
 * itself and reports its error as it always did. Framework uses a cached
 * output while it is newer than its loader, and src/site/build_site.ts clears
 * these outputs before every build, so none outlives the build it was made for.
 *
 * Usage: deno run -A src/site/prefill_site_data.ts [--root docs] [--into DIR]
 * (run with the environment the loaders would get: EXECRET_OUT, …).
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { atomicWrite } from "../io/atomic_write.ts";
import type { PageEntry } from "./page_entry.ts";
import { type MakeFile, siteDataFiles } from "./site_data.ts";
import { sqlPage } from "./sql_page.ts";

/** Where Framework caches the output of the loader of `path` (relative to `root`). */
export function cachePathOf(root: string, path: string): string {
  return join(root, ".observablehq", "cache", path);
}

/**
 * Every file a build of `pages` would get from a loader, by its path under
 * the root: the data files, then the SQL console's page.
 */
export function loaderOutputs(pages?: readonly PageEntry[]): Map<string, MakeFile> {
  const out = new Map<string, MakeFile>();
  for (const [name, make] of siteDataFiles(pages)) out.set(`data/${name}`, make);
  out.set("sql.md", () => Promise.resolve(new TextEncoder().encode(sqlPage())));
  return out;
}

/**
 * Make each loader output of the site under `root` in this process and write
 * it to Framework's cache, or with `into`, the data files alone as plain files
 * there (`<into>/<name>`: a site of several runs gets each run's data as
 * static files, see src/site/site_runs.ts); resolves to the paths made and
 * those that failed.
 */
export async function prefillSiteData(
  root: string,
  into?: string,
  pages?: readonly PageEntry[],
): Promise<{ filled: string[]; failed: string[] }> {
  const filled: string[] = [], failed: string[] = [];
  for (const [path, make] of loaderOutputs(pages)) {
    if (into && !path.startsWith("data/")) continue;
    let bytes: Uint8Array;
    try {
      bytes = await make();
    } catch (e) {
      console.error(`prefill: ${path}: ${(e as Error).message.split("\n")[0]}`);
      failed.push(path);
      continue;
    }
    await atomicWrite(
      into ? join(into, path.slice("data/".length)) : cachePathOf(root, path),
      bytes,
    );
    filled.push(path);
  }
  return { filled, failed };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { root: { type: "string" }, into: { type: "string" } },
  });
  const { failed } = await prefillSiteData(values.root ?? "docs", values.into);
  // Into a folder, no Framework runs a failed loader again to report it: fail here.
  if (values.into && failed.length) Deno.exit(1);
}
