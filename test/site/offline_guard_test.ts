/**
 * The build's network guard: a page that imports an npm package missing from
 * the filled cache must fail the build (Framework would fetch it from a CDN),
 * while the same site without that import builds. Without the second half a
 * build broken for any other reason would pass the first.
 */
import { deepStrictEqual as assertEquals, notStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { buildSite } from "../../scripts/build_site.ts";

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
  name: "site build fails on a network request and passes without one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "execret-guard-" });
    try {
      const root = join(dir, "docs");
      const env = { EXECRET_SITE_OUT: join(dir, "site") };
      const offline = "# Offline\n\n```js\ndisplay(Plot.barY([1, 2]).plot())\n```\n";
      let config = await tinySite(dir, offline);
      const ok1 = await buildSite({ root, config, env, quiet: true });
      assertEquals(ok1.code, 0, ok1.output.slice(-2000));

      const online =
        '# Online\n\n```js\nimport leftPad from "npm:left-pad";\ndisplay(leftPad("x", 3))\n```\n';
      config = await tinySite(dir, online);
      const bad = await buildSite({ root, config, env, quiet: true });
      notStrictEqual(bad.code, 0);
      ok(/net access/i.test(bad.output), bad.output.slice(-2000));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
