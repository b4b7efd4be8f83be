import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { checkedRowsOf } from "../io/arrow_table.ts";
import { AUDIT } from "../tables/release.ts";
import * as arrow from "apache-arrow";
import { auditStream } from "./audit_stream.ts";
import { importRelease } from "./import_release.ts";
import { FIXTURE_BUNDLE } from "./_test_bundle.ts";

Deno.test("the page's audit stream is the import's table, or an empty one before any import", async () => {
  const out = await Deno.makeTempDir();
  Deno.env.set("EXECRET_OUT", out);
  try {
    const empty = arrow.tableFromIPC(await auditStream());
    assertEquals([empty.numRows, empty.schema.fields.map((f) => f.name)[0]], [0, "section"]);
    await importRelease(FIXTURE_BUNDLE, { reexecute: false, quiet: true });
    const rows = checkedRowsOf(arrow.tableFromIPC(await auditStream()), AUDIT, "audit stream");
    assertEquals([...new Set(rows.map((r) => r.section))], [
      "metrics",
      "leaderboard",
      "intervals",
      "pairwise",
      "tasks",
      "executions",
      "relevance",
      "mutations",
    ]);
  } finally {
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});
