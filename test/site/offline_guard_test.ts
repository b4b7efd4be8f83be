/**
 * The build's network guard: a page that imports an npm package missing from
 * the filled cache must fail the build (Framework would fetch it from a CDN),
 * and fail it for that reason: the error names the registry request the
 * guard refused and the package it was for, so a build broken for any other
 * reason does not pass. That a site without such an import builds offline
 * under the same guard is the site test's (test/site/site_test.ts builds the
 * real pages, with Vega, Inputs and DuckDB, and requires success); a second
 * build here to show it cost ~5 CPU-s.
 */
import { notStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { buildSite } from "../../src/site/build_site.ts";

async function tinySite(dir: string, page: string): Promise<string> {
  const root = join(dir, "docs");
  await Deno.mkdir(root, { recursive: true });
  await Deno.writeTextFile(join(root, "index.md"), page);
  const config = join(dir, "observablehq.config.ts");
  await Deno.writeTextFile(
    config,
    `export default ${
      JSON.stringify({
        root,
        output: join(dir, "site"),
        duckdb: { extensions: { json: null, parquet: null } },
        globalStylesheets: [],
        search: false,
      })
    };\n`,
  );
  return config;
}

Deno.test({
  name: "site build fails on a network request, naming the request it refused",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "execret-guard-" });
    try {
      const root = join(dir, "docs");
      const env = { EXECRET_SITE_OUT: join(dir, "site") };
      const online =
        '# Online\n\n```js\nimport leftPad from "npm:left-pad";\ndisplay(leftPad("x", 3))\n```\n';
      const config = await tinySite(dir, online);
      const bad = await buildSite({ root, config, env, quiet: true });
      notStrictEqual(bad.code, 0);
      const tail = bad.output.slice(-2000);
      ok(/Requires net access to "registry\.npmjs\.org/.test(bad.output), tail);
      ok(bad.output.includes("left-pad"), tail);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
