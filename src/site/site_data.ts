/**
 * Every file the site's pages attach from `data/`, by name, with how it is
 * made: each site table as `<name>.arrow` (src/site/site_tables.ts, from the
 * table catalog), each page's build-time data as `page_<id>.json` (from the
 * page list, src/site/pages.ts), the run's provenance (`run.json`), the SQL
 * console's schema (`sql_schema.json`), the Your models page's data
 * (`your_models.json`) and the pages' browser module (`report.js`).
 *
 * The one list the three loaders of docs/data/ (one per kind of file, which
 * Framework runs with the file's name), a build's prefill of every output
 * (src/site/prefill_site_data.ts) and a site of several runs read. Run alone
 * it prints one file, as Framework would get it:
 *
 *   deno run -A src/site/site_data.ts metrics.arrow > metrics.arrow
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { PageEntry } from "./page_entry.ts";
import { PAGES } from "./pages.ts";
import { pageData, pageDataJson } from "./page_data.ts";
import { bundleReportModule } from "./report_bundle.ts";
import { runInfo } from "./run_info.ts";
import { siteSchema } from "./site_schema.ts";
import { siteTableBytes, siteTableNames } from "./site_tables.ts";
import { writeAll } from "./stdout.ts";
import { yourModelsData } from "./your_models_data.ts";

/** How one data file is made. */
export type MakeFile = () => Promise<Uint8Array>;

const json = (make: () => Promise<unknown>): MakeFile => async () =>
  new TextEncoder().encode(JSON.stringify(await make()));

/**
 * Every data file of the site of `pages`, by file name, in the order a build
 * makes them.
 *
 * @example
 * ```ts
 * import { ok } from "node:assert/strict";
 * const names = [...siteDataFiles().keys()];
 * ok(names.includes("metrics.arrow") && names.includes("page_overview.json"));
 * ```
 */
export function siteDataFiles(pages: readonly PageEntry[] = PAGES): Map<string, MakeFile> {
  const files = new Map<string, MakeFile>();
  for (const name of siteTableNames()) files.set(`${name}.arrow`, () => siteTableBytes(name));
  for (const page of pages) {
    for (const data of [page.data, page.more]) {
      if (!data) continue;
      files.set(
        `page_${data.id}.json`,
        async () => new TextEncoder().encode(pageDataJson(await pageData(data))),
      );
    }
  }
  files.set("run.json", json(runInfo));
  files.set("sql_schema.json", json(siteSchema));
  files.set("your_models.json", json(yourModelsData));
  files.set("report.js", async () => new TextEncoder().encode(await bundleReportModule()));
  return files;
}

/** The bytes of data file `name`, or an error naming it when the site has no such file. */
export function siteDataFile(name: string, pages?: readonly PageEntry[]): Promise<Uint8Array> {
  const make = siteDataFiles(pages).get(name);
  if (!make) return Promise.reject(new Error(`data/${name}: no such file of the site`));
  return make();
}

/**
 * What a parameterized loader of docs/data/ (`[name].arrow.ts`) was asked
 * for: Framework passes the file's name as `--name=<name>`.
 */
export function loaderName(args: readonly string[] = Deno.args): string {
  const { values } = parseArgs({ args: [...args], options: { name: { type: "string" } } });
  if (!values.name) throw new Error("expected --name=<file name>, as Framework passes it");
  return values.name;
}

/** Write data file `name` to stdout (what a loader of docs/data/ does). */
export async function writeSiteData(name: string): Promise<void> {
  await writeAll(await siteDataFile(name));
}

if (import.meta.main) {
  if (!Deno.args[0]) {
    console.error("usage: deno run -A src/site/site_data.ts <data file, e.g. metrics.arrow>");
    Deno.exit(2);
  }
  await writeSiteData(Deno.args[0]);
}
