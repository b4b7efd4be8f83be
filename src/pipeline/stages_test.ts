import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { basename, dirname } from "node:path";
import { loadProfile } from "./profile.ts";
import { STAGES } from "./stages.ts";
import { TABLE_STAGE } from "./run_pipeline.ts";

Deno.test("each table is written by one stage, and TABLE_STAGE is that stage", () => {
  const owners = new Map<string, string[]>();
  for (const s of STAGES) {
    for (const t of s.tables) owners.set(t, [...(owners.get(t) ?? []), s.name]);
  }
  const shared = [...owners].filter(([, stages]) => stages.length > 1);
  assertEquals(shared, []);
  for (const [t, [stage]] of owners) assertEquals([t, TABLE_STAGE[t]], [t, stage]);
  assertEquals(Object.keys(TABLE_STAGE).sort(), [...owners.keys()].sort());
});

Deno.test("a stage's stamped tables are among the tables it declares", async () => {
  const profile = loadProfile("default");
  for (const s of STAGES) {
    const tables = (await s.outputs(profile))
      .filter((p) => basename(dirname(p)) === "tables")
      .map((p) => basename(p, ".arrow"))
      // Each stage's own rejects file feeds the combined `rejects` table.
      .filter((name) => !name.startsWith("rejects_"));
    for (const t of tables) assertEquals([s.name, t, s.tables.includes(t)], [s.name, t, true]);
  }
});
