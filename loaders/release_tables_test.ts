import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import * as arrow from "apache-arrow";
import { RELEASE_TABLES } from "./release_tables.ts";

const root = new URL("../", import.meta.url).pathname;

Deno.test("on a run without a release, each release table's loader writes an empty table of its columns", async () => {
  const empty = await Deno.makeTempDir({ prefix: "execret-release-loaders-" });
  try {
    for (const [name, spec] of Object.entries(RELEASE_TABLES)) {
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--cached-only", join(root, "docs", "data", `${name}.arrow.ts`)],
        env: { EXECRET_OUT: empty, EXECRET_SITE_READ_ONLY: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(code, 0, new TextDecoder().decode(stderr));
      const table = arrow.tableFromIPC(stdout);
      assertEquals([name, table.numRows], [name, 0]);
      assertEquals(table.schema.fields.map((f) => f.name), Object.keys(spec));
    }
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
