import { deepStrictEqual } from "node:assert/strict";
import { TABLE_CATALOG } from "./catalog.ts";
import { STAGES } from "../pipeline/stages.ts";

Deno.test("the catalog names each table once, and the stages write exactly its tables", () => {
  const names = TABLE_CATALOG.map((e) => e.name);
  deepStrictEqual(new Set(names).size, names.length);
  const written = STAGES.flatMap((s) => s.tables.map((t) => [t, s.name]));
  deepStrictEqual(
    Object.fromEntries(written),
    Object.fromEntries(TABLE_CATALOG.map((e) => [e.name, e.stage])),
  );
  deepStrictEqual(written.length, names.length);
});
