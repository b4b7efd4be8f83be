import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { join } from "node:path";
import { readTableRows } from "../io/arrow_table.ts";
import { REJECTS } from "./schema.ts";
import { tablesDir } from "../io/paths.ts";
import { writeCombinedRejects, writeRejects } from "./rejects.ts";

async function freshOut(): Promise<void> {
  Deno.env.set("EXECRET_OUT", await Deno.makeTempDir({ prefix: "execret-rejects-" }));
}

Deno.test("stages that have not run (no rejects file) are skipped in the combined table", async () => {
  await freshOut();
  await writeRejects("mutate", [{ stage: "", source: "s", locator: "t/1", reason: "no site" }]);
  await writeRejects("tasks", [{ stage: "", source: "s", locator: "f:3", reason: "bad json" }]);
  assertEquals(await writeCombinedRejects(), { tasks: 1, mutate: 1 });
  const all = await readTableRows(join(tablesDir(), "rejects.arrow"), REJECTS);
  assertEquals(all.map((r) => [r.stage, r.locator]), [["tasks", "f:3"], ["mutate", "t/1"]]);
});

Deno.test("a rejects file that exists but cannot be read is a one-line error naming it", async () => {
  await freshOut();
  await Deno.mkdir(tablesDir(), { recursive: true });
  const unreadable = join(tablesDir(), "rejects_oracle.arrow");
  await Deno.mkdir(unreadable); // a folder where the file should be: not "not found"
  await assertRejects(
    () => writeCombinedRejects(),
    (e: Error) => e.message.includes(unreadable) && !e.message.includes("\n"),
  );
});

Deno.test("a corrupt rejects file is a one-line error naming it, not silently dropped", async () => {
  await freshOut();
  await Deno.mkdir(tablesDir(), { recursive: true });
  const corrupt = join(tablesDir(), "rejects_oracle.arrow");
  await Deno.writeTextFile(corrupt, "not an arrow stream");
  await assertRejects(
    () => writeCombinedRejects(),
    (e: Error) => e.message.includes(corrupt) && !e.message.includes("\n"),
  );
});
