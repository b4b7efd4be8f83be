import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readTableRows, toParquet } from "../io/arrow_table.ts";
import { AUDIT, summarizeAudit } from "./audit_row.ts";
import { auditStream } from "./audit_stream.ts";
import { importRelease, releaseTablePath } from "./import_release.ts";
import { FIXTURE_BUNDLE } from "./_test_bundle.ts";

/** The SQL of every `sql` template in the report page, in page order. */
async function pageSql(): Promise<string[]> {
  const page = await Deno.readTextFile(new URL("../../docs/audit.md", import.meta.url));
  return [...page.matchAll(/sql`([\s\S]*?)`/g)].map((m) => m[1]);
}

Deno.test("the audit page's SQL agrees with the audit table", async () => {
  const out = await Deno.makeTempDir();
  Deno.env.set("EXECRET_OUT", out);
  const instance = await DuckDBInstance.create(":memory:");
  const db = await instance.connect();
  try {
    await importRelease(FIXTURE_BUNDLE, { reexecute: false, quiet: true });
    const audit = await readTableRows(releaseTablePath("audit"), AUDIT);
    // As in the browser: the loader's Arrow stream, loaded as a table (so rowid is file order).
    const parquet = join(out, "audit.parquet");
    await Deno.writeFile(parquet, toParquet(await auditStream()));
    await db.run(`CREATE TABLE audit AS SELECT * FROM read_parquet('${parquet}')`);
    const query = async (sql: string) =>
      (await (await db.runAndReadAll(sql)).getRowObjectsJS()) as Record<string, unknown>[];

    const [sections, mismatches, points, all, mutations] = await Promise.all(
      (await pageSql()).map(query),
    );
    const s = summarizeAudit(audit);
    const sum = (key: string) => sections.reduce((t, r) => t + Number(r[key]), 0);
    assertEquals([sum("checked"), sum("matched"), sum("mismatched")], [
      s.checked,
      s.matched,
      s.mismatched,
    ]);
    assertEquals(sections.map((r) => r.section), [
      "metrics",
      "leaderboard",
      "intervals",
      "pairwise",
      "tasks",
      "executions",
      "relevance",
    ]);
    assertEquals(mismatches.length, s.mismatched);
    ok(points.length > 0 && points.every((p) => p.recomputed !== null));
    assertEquals(all.length, audit.filter((r) => r.section !== "mutations").length);
    assertEquals(all[0].locator, audit[0].locator);
    const offByOne = mutations.find((r) => r.bug_type === "off_by_one")!;
    const released = audit.find((r) =>
      r.section === "mutations" && r.subject === "off_by_one"
    )!.released;
    assertEquals(Number(offByOne.released), released);
  } finally {
    db.closeSync();
    instance.closeSync();
    Deno.env.delete("EXECRET_OUT");
    await Deno.remove(out, { recursive: true });
  }
});
