import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import * as arrow from "apache-arrow";
import { makeFixtureRunInProcess } from "../../test/fixtures/run/fixture_process.ts";
import { tableBytes } from "./table_bytes.ts";
import { runLoader as load } from "../../test/support/run_loader.ts";
import { VALIDATION } from "../tables/schema.ts";

Deno.test("a missing optional table is an empty table of its spec; a required one fails", async () => {
  const missing = (name: string) => Promise.reject(new Error(`${name}: table not found`));
  const table = arrow.tableFromIPC(await tableBytes("validation", VALIDATION, missing));
  assertEquals(table.numRows, 0);
  assertEquals(table.schema.fields.map((f) => f.name), ["gate", "source", "count"]);
  let failed = false;
  await tableBytes("metrics", undefined, missing).catch(() => (failed = true));
  ok(failed);
});

Deno.test("the loaders write the run's data files to stdout, and run alone", async (t) => {
  const out = await Deno.makeTempDir({ prefix: "execret-loaders-" });
  const empty = await Deno.makeTempDir({ prefix: "execret-loaders-empty-" });
  try {
    await makeFixtureRunInProcess(out);

    await t.step("a table loader emits the stage's Arrow stream byte for byte", async () => {
      const alone = await load("src/site/site_data.ts", out, "metrics.arrow");
      assertEquals(alone.code, 0, alone.stderr);
      assertEquals(alone.stdout, await Deno.readFile(join(out, "tables", "metrics.arrow")));
      const framework = await load("docs/data/[name].arrow.ts", out, "--name=metrics");
      assertEquals(framework.stdout, alone.stdout);
    });

    await t.step("read-only, a missing table fails the loader with the reason", async () => {
      const r = await load("docs/data/[name].arrow.ts", empty, "--name=metrics");
      ok(r.code !== 0);
      ok(r.stderr.includes("table not found"), r.stderr);
    });

    await t.step("a file the site has not is an error naming it", async () => {
      const r = await load("docs/data/[name].json.ts", out, "--name=page_nowhere");
      ok(r.code !== 0);
      ok(r.stderr.includes("data/page_nowhere.json: no such file of the site"), r.stderr);
    });

    await t.step("run info carries the manifest and its digest, or null", async () => {
      const r = await load("docs/data/[name].json.ts", out, "--name=run");
      const info = JSON.parse(new TextDecoder().decode(r.stdout));
      assertEquals(info.manifest.kit, "execret");
      assertEquals(info.manifest_sha256.length, 64);
      ok(info.invocations.some((i: { name: string }) => i.name === "bm25"));
      const none = JSON.parse(
        new TextDecoder().decode((await load("src/site/site_data.ts", empty, "run.json")).stdout),
      );
      assertEquals([none.manifest, none.manifest_sha256], [null, null]);
    });

    await t.step("the outcomes loader attaches every snippet's tests", async () => {
      const r = await load("src/site/site_data.ts", out, "outcomes.arrow");
      assertEquals(r.code, 0, r.stderr);
      const rows = arrow.tableFromIPC(r.stdout).numRows;
      const executions = arrow.tableFromIPC(
        await Deno.readFile(join(out, "tables", "executions.arrow")),
      );
      // Executions also hold candidates the oracle dropped, which are not in the pool.
      ok(rows > 0 && rows < executions.numRows, `${rows} of ${executions.numRows}`);
    });

    await t.step("the report module bundles to one browser module with no imports", async () => {
      const r = await load("docs/data/report.js.ts", out);
      const js = new TextDecoder().decode(r.stdout);
      ok(js.includes("HEADLINE_SQL") && !/\bimport\s*[\w{*]/.test(js));
    });
  } finally {
    await Deno.remove(out, { recursive: true });
    await Deno.remove(empty, { recursive: true });
  }
});
