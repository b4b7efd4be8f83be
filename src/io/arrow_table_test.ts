import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as arrow from "apache-arrow";
import { readRows, tableFromRows, toIpcStream, toParquet } from "./arrow_table.ts";

Deno.test("tableFromRows round-trips every column type through an Arrow stream", async () => {
  const spec = {
    id: "utf8",
    n: "int32",
    x: "float64",
    ok: "bool",
    tags: "utf8_list",
    v: { fixedFloat32: 3 },
  } as const;
  const rows = [
    { id: "a", n: 1, x: 0.5, ok: true, tags: ["p", "q"], v: new Float32Array([1, 2, 3]) },
    { id: "b", n: null, x: 2.25, ok: false, tags: [], v: new Float32Array([0, 0, 1]) },
  ];
  const table = tableFromRows(rows, spec, { stage: "test" });
  const bytes = toIpcStream(table);
  const dir = await Deno.makeTempDir();
  await Deno.writeFile(`${dir}/t.arrow`, bytes);
  const back = await readRows(`${dir}/t.arrow`);
  assertEquals(back[0].tags, ["p", "q"]);
  assertEquals(back[1].tags, []);
  assertEquals(back[1].n, null);
  assertEquals(Array.from(back[0].v as Float32Array), [1, 2, 3]);
  assertEquals(back[1].ok, false);
  assertEquals(arrow.tableFromIPC(bytes).schema.metadata.get("stage"), "test");
  assertEquals(String(arrow.tableFromIPC(bytes).schema.fields[0].type), "Utf8");
  // Same rows, same bytes: stages rely on this for byte-identical reruns.
  assertEquals(toIpcStream(tableFromRows(rows, spec, { stage: "test" })), bytes);
  const parquet = toParquet(bytes);
  assertEquals(new TextDecoder().decode(parquet.subarray(0, 4)), "PAR1");
});

Deno.test("tableFromRows rejects a column that is not in the spec", () => {
  let message = "";
  try {
    tableFromRows([{ id: "a", typo: 1 }], { id: "utf8" });
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, 'row 0: column "typo" is not in the table spec');
});
