import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import * as arrow from "apache-arrow";
import { TABLE_CATALOG } from "../tables/catalog.ts";
import { consoleTables, SITE_VIEWS, siteTableNames } from "./site_tables.ts";
import { PAGES } from "./pages.ts";
import { siteDataFiles } from "./site_data.ts";
import { runLoader } from "../../test/support/run_loader.ts";

Deno.test("on a run without a release, each release table's loader writes an empty table of its columns", async () => {
  const empty = await Deno.makeTempDir({ prefix: "execret-release-loaders-" });
  try {
    for (const { name, spec } of TABLE_CATALOG.filter((e) => e.releaseOnly)) {
      const args = [`--name=${name}`];
      const { code, stdout, stderr } = await runLoader("docs/data/[name].arrow.ts", empty, ...args);
      assertEquals(code, 0, stderr);
      const table = arrow.tableFromIPC(stdout);
      assertEquals([name, table.numRows], [name, 0]);
      assertEquals(table.schema.fields.map((f) => f.name), Object.keys(spec));
    }
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("every catalog table is a site data file and in the SQL console, unless it says why not", () => {
  const files = new Set(siteDataFiles().keys());
  for (const e of TABLE_CATALOG) {
    if (e.site.hidden) {
      ok(!files.has(`${e.name}.arrow`) && !consoleTables().includes(e.name), e.name);
      continue;
    }
    ok(files.has(`${e.name}.arrow`), `${e.name}.arrow is no data file of the site`);
    ok(consoleTables().includes(e.name), `${e.name} is not in the SQL console`);
  }
  // A table adds its rows only to a table the site serves.
  for (const e of TABLE_CATALOG.filter((e) => e.site.into)) {
    ok(consoleTables().includes(e.site.into!), `${e.name} adds to ${e.site.into}`);
  }
  for (const view of Object.keys(SITE_VIEWS)) ok(files.has(`${view}.arrow`), view);
});

Deno.test("every table a page's queries read is a table of the site", () => {
  const served = new Set(siteTableNames());
  for (const { path, data } of PAGES) {
    for (const table of data?.tables ?? []) ok(served.has(table), `${path} reads ${table}`);
  }
});
