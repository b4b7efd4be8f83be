import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as arrow from "apache-arrow";
import { RELEASE_TABLES } from "./release_tables.ts";
import { runLoader } from "../../test/support/run_loader.ts";

Deno.test("on a run without a release, each release table's loader writes an empty table of its columns", async () => {
  const empty = await Deno.makeTempDir({ prefix: "execret-release-loaders-" });
  try {
    for (const [name, spec] of Object.entries(RELEASE_TABLES)) {
      const { code, stdout, stderr } = await runLoader(`docs/data/${name}.arrow.ts`, empty);
      assertEquals(code, 0, stderr);
      const table = arrow.tableFromIPC(stdout);
      assertEquals([name, table.numRows], [name, 0]);
      assertEquals(table.schema.fields.map((f) => f.name), Object.keys(spec));
    }
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
