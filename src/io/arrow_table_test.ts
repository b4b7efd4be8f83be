import { deepStrictEqual as assertEquals } from "node:assert/strict";
import * as arrow from "apache-arrow";
import {
  pick,
  readRows,
  readTableRows,
  type RowOf,
  tableFromRows,
  type TableSpec,
  tableSpec,
  toIpcStream,
  toParquet,
  withNulls,
} from "./arrow_table.ts";

Deno.test("tableFromRows round-trips every column type through an Arrow stream", async () => {
  const spec = {
    id: "utf8",
    n: "int32?",
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
    // The compiler refuses the column; rows whose type is not known are still checked.
    // @ts-expect-error: "typo" is not a column of the spec
    tableFromRows([{ id: "a", typo: 1 }], { id: "utf8" });
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(message, 'row 0: column "typo" is not in the table spec');
});

const POINTS = tableSpec({
  id: "utf8",
  x: "float64",
  tags: "utf8_list",
  label: "utf8?",
  v: { fixedFloat32: 2 },
});

/** Write `rows` with `spec` (columns a row leaves out are null) to a temporary Arrow stream and return its path. */
async function tableFile<S extends TableSpec>(
  rows: Partial<RowOf<S>>[],
  spec: S,
): Promise<string> {
  const path = `${await Deno.makeTempDir()}/points.arrow`;
  await Deno.writeFile(path, toIpcStream(tableFromRows(withNulls(spec, rows), spec)));
  return path;
}

async function readError(path: string, spec: Parameters<typeof readTableRows>[1]): Promise<string> {
  try {
    await readTableRows(path, spec);
  } catch (e) {
    return (e as Error).message;
  }
  return "no error";
}

Deno.test("readTableRows reads rows typed by the spec, nulls included, extra columns too", async () => {
  const path = await tableFile(
    [
      { id: "a", x: 1.5, tags: ["p"], label: "l", v: new Float32Array([1, 2]), extra: 7 },
      { id: "b", x: 2, tags: [], label: null, v: new Float32Array([0, 1]), extra: 8 },
    ],
    { ...POINTS, extra: "int32" },
  );
  const rows: RowOf<typeof POINTS>[] = await readTableRows(path, POINTS);
  assertEquals(rows.map((r) => [r.id, r.x, r.tags, r.label, Array.from(r.v)]), [
    ["a", 1.5, ["p"], "l", [1, 2]],
    ["b", 2, [], null, [0, 1]],
  ]);
  // Extra columns are allowed and still read.
  assertEquals((rows[1] as Record<string, unknown>).extra, 8);
  // A pick checks only its columns.
  const ids = await readTableRows(path, pick(POINTS, "id"));
  assertEquals(ids.map((r) => r.id), ["a", "b"]);
});

Deno.test("readTableRows names the file and column of a missing or mistyped column", async () => {
  const noTags = await tableFile([{ id: "a" }], { id: "utf8", x: "float64", label: "utf8" });
  assertEquals(
    await readError(noTags, POINTS),
    `${noTags}: column "tags" is missing, expected List<Utf8>`,
  );
  const tagsAsText = await tableFile([{ id: "a", tags: "p" }], { id: "utf8", tags: "utf8" });
  assertEquals(
    await readError(tagsAsText, pick(POINTS, "id", "tags")),
    `${tagsAsText}: column "tags" is Utf8, expected List<Utf8>`,
  );
  const xAsInt = await tableFile([{ id: "a", x: 1 }], { id: "utf8", x: "int32" });
  assertEquals(
    await readError(xAsInt, pick(POINTS, "x")),
    `${xAsInt}: column "x" is Int32, expected Float64`,
  );
  const wideVectors = await tableFile([{ v: new Float32Array(3) }], { v: { fixedFloat32: 3 } });
  assertEquals(
    await readError(wideVectors, pick(POINTS, "v")),
    `${wideVectors}: column "v" is FixedSizeList[3]<Float32>, expected FixedSizeList[2]<Float32>`,
  );
});

Deno.test("a nullable column is written with the same schema as a non-null one", async () => {
  const rows = [{ id: "a", label: null }];
  const nullable = tableSpec({ id: "utf8", label: "utf8?" });
  const plain = tableSpec({ id: "utf8", label: "utf8" });
  const bytes = toIpcStream(tableFromRows(rows, nullable));
  assertEquals(bytes, toIpcStream(tableFromRows(withNulls(plain, [{ id: "a" }]), plain)));
  // Either spec accepts the file; the nullable one types the null it holds.
  const path = await tableFile(rows, nullable);
  const back: (string | null)[] = (await readTableRows(path, nullable)).map((r) => r.label);
  assertEquals(back, [null]);
  assertEquals(await readError(path, { id: "utf8", label: "utf8" }), "no error");
});
