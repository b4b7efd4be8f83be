import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { makeFixtureRunInProcess } from "../../test/fixtures/run/fixture_process.ts";
import { runLoader } from "../../test/support/run_loader.ts";
import { cachePathOf, loaderOutputs, prefillSiteData } from "./prefill_site_data.ts";

Deno.test({
  name: "prefilled outputs are the bytes each loader prints alone, where Framework caches them",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const out = await Deno.makeTempDir({ prefix: "execret-prefill-run-" });
    const root = await Deno.makeTempDir({ prefix: "execret-prefill-" });
    const env = ["EXECRET_OUT", "EXECRET_SITE_READ_ONLY"].map((k) => [k, Deno.env.get(k)]);
    try {
      await makeFixtureRunInProcess(out);
      Deno.env.set("EXECRET_OUT", out);
      Deno.env.set("EXECRET_SITE_READ_ONLY", "1");
      const { filled, failed } = await prefillSiteData(root);
      assertEquals(failed, []);
      assertEquals(filled, [...loaderOutputs().keys()]);
      // Framework's cache of the loader of data/<name>.
      const cached = (path: string) => Deno.readFile(cachePathOf(root, path));
      assertEquals(
        cachePathOf(root, "data/metrics.arrow"),
        join(root, ".observablehq/cache/data/metrics.arrow"),
      );
      // What Framework would cache: each loader's stdout as its own process.
      for (
        const [loader, path, args] of [
          ["docs/data/[name].arrow.ts", "data/metrics.arrow", ["--name=metrics"]],
          ["docs/data/[name].json.ts", "data/page_benchmark.json", ["--name=page_benchmark"]],
          ["docs/sql.md.ts", "sql.md", []],
        ] as const
      ) {
        const alone = await runLoader(loader, out, ...args);
        assertEquals(alone.code, 0, alone.stderr);
        ok((await cached(path)).length > 0, path);
        assertEquals(await cached(path), alone.stdout, path);
      }
    } finally {
      for (const [k, v] of env) v === undefined ? Deno.env.delete(k!) : Deno.env.set(k!, v);
      await Deno.remove(out, { recursive: true });
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("a file that cannot be made is left out, for Framework to run its loader and report", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-prefill-" });
  const env = ["EXECRET_OUT", "EXECRET_SITE_READ_ONLY"].map((k) => [k, Deno.env.get(k)]);
  try {
    // An empty run: every required table is missing, and read-only nothing is computed.
    Deno.env.set("EXECRET_OUT", root);
    Deno.env.set("EXECRET_SITE_READ_ONLY", "1");
    const { failed } = await prefillSiteData(root, undefined, []);
    ok(failed.includes("data/metrics.arrow"), failed.join(" "));
    ok(!failed.includes("data/validation.arrow"), "an optional table is an empty table");
    const missing = await Deno.stat(cachePathOf(root, "data/metrics.arrow")).then(() => 0, () => 1);
    assertEquals(missing, 1);
  } finally {
    for (const [k, v] of env) v === undefined ? Deno.env.delete(k!) : Deno.env.set(k!, v);
    await Deno.remove(root, { recursive: true });
  }
});
