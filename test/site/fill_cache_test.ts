import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  BUNDLES,
  clientNpmNames,
  DUCKDB_WASM_VERSION,
  fillFrameworkCache,
} from "../../src/site/fill_framework_cache.ts";

Deno.test("clientNpmNames finds package names in Framework's client source", () => {
  const source = `import "npm:d3"; x("npm:@observablehq/sample-datasets/cars.csv");
    import.meta.resolve('npm:@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'); "npm:sql.js/dist/"`;
  assertEquals(clientNpmNames(source), [
    "@duckdb/duckdb-wasm",
    "@observablehq/sample-datasets",
    "d3",
    "sql.js",
  ]);
});

Deno.test("the DuckDB-wasm bundle is the version Framework hard-codes", async () => {
  const framework = await Deno.readTextFile(
    "node_modules/@observablehq/framework/dist/duckdb.js",
  );
  ok(framework.includes(`DUCKDB_WASM_VERSION = "${DUCKDB_WASM_VERSION}"`));
  ok(BUNDLES.some((b) => b.name === "@duckdb/duckdb-wasm" && b.version === DUCKDB_WASM_VERSION));
});

Deno.test({
  name: "fillFrameworkCache writes self-contained bundles and placeholders",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "execret-cache-" });
    try {
      const versions = await fillFrameworkCache(root, { quiet: true });
      const npm = join(root, ".observablehq", "cache", "_npm");
      for (const [name, version] of versions) {
        const js = await Deno.readTextFile(join(npm, `${name}@${version}`, "_esm.js"));
        // Only relative imports of other cached bundles remain; no bare or CDN specifiers.
        const imports =
          /\bimport\s*(?:\*\s*as\s*[\w$]+|\{[^}]*\}|[\w$]+)\s*from\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;
        for (const m of js.matchAll(imports)) {
          const spec = m[1] ?? m[2];
          ok(spec.startsWith("../"), `${name}: import of ${spec}`);
        }
      }
      const duck = join(npm, `@duckdb/duckdb-wasm@${DUCKDB_WASM_VERSION}`, "dist");
      ok((await Deno.stat(join(duck, "duckdb-eh.wasm"))).size > 1_000_000);
      ok((await Deno.stat(join(duck, "duckdb-browser-eh.worker.js"))).isFile);
      // A name the client mentions but no page loads: an empty folder fixes its version.
      const placeholders = [...Deno.readDirSync(npm)].map((e) => e.name);
      ok(placeholders.some((n) => n.startsWith("d3@")), placeholders.join(", "));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
