import { deepStrictEqual, ok } from "node:assert/strict";
import { TABLE_CATALOG } from "./catalog.ts";
import { STAGES } from "../pipeline/stages.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("every table has its loader, which streams it, or says why it has none", () => {
  for (const e of TABLE_CATALOG) {
    if ("none" in e.loader) {
      ok(e.loader.none.length > 10, `${e.name}: no loader and no reason`);
      continue;
    }
    const text = Deno.readTextFileSync(new URL(e.loader.path, ROOT));
    ok(text.includes(`"${e.name}"`), `${e.loader.path} does not name the table ${e.name}`);
  }
});

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
