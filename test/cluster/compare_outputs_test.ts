/**
 * compare_outputs.ts on two small output folders written with the kit's own
 * writers: identical runs compare equal; wall-clock values (an execution's
 * ms, an embedding file's created_at) are neutralised, not skipped, so any
 * other change in those files, a changed outcome, a missing file or a
 * Parquet copy that is not its table's, is reported with where it is.
 */
import { deepStrictEqual, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { type RowOf, tableFromRows, toIpcStream, toParquet } from "../../src/io/arrow_table.ts";
import { EXECUTION_TIMES, EXECUTIONS, LIMIT_MARGINS } from "../../src/tables/schema.ts";
import { measuredTables } from "../../src/tables/catalog.ts";
import { embeddingsSpec } from "../../src/tables/embeddings.ts";
import { compareOutputs, type FileVerdict, MEASURED } from "./compare_outputs.ts";

type Execution = RowOf<typeof EXECUTIONS>;
type Time = RowOf<typeof EXECUTION_TIMES>;
type Margin = RowOf<typeof LIMIT_MARGINS>;

const EXECUTION_ROWS: Execution[] = ["pass", "FAIL", "TIMEOUT", "pass"].map((outcome, i) => ({
  code_sha256: `c${i}`,
  tests_sha256: "t",
  runtime: "pyodide",
  test_index: i,
  outcome,
}));

interface Run {
  executions?: Execution[];
  times?: number[];
  /** limit_margins rows (default: one). */
  margins?: Margin[];
  createdAt?: string;
  vector?: number[];
  /** Bytes for parquet/execution_times.parquet instead of its table's Parquet. */
  timesParquet?: Uint8Array;
}

/** An output folder with executions, execution_times (each with a Parquet copy) and an embedding file. */
async function writeRun(root: string, name: string, run: Run = {}): Promise<string> {
  const out = join(root, name);
  for (const d of ["tables", "parquet", "embeddings"]) {
    await Deno.mkdir(join(out, d), { recursive: true });
  }
  const executions = run.executions ?? EXECUTION_ROWS;
  const times: Time[] = executions.map((e, i) => ({
    code_sha256: e.code_sha256,
    tests_sha256: e.tests_sha256,
    runtime: e.runtime,
    test_index: e.test_index,
    ms: run.times?.[i] ?? 10 + i,
    cpu_ms: run.times ? run.times[i] / 2 : 5 + i,
  }));
  const write = async (table: string, ipc: Uint8Array, parquet?: Uint8Array) => {
    await Deno.writeFile(join(out, "tables", `${table}.arrow`), ipc);
    await Deno.writeFile(join(out, "parquet", `${table}.parquet`), parquet ?? toParquet(ipc));
  };
  await write("executions", toIpcStream(tableFromRows(executions, EXECUTIONS)));
  await write(
    "execution_times",
    toIpcStream(tableFromRows(times, EXECUTION_TIMES)),
    run.timesParquet,
  );
  const margins: Margin[] = run.margins ?? [
    {
      task_id: "t/1",
      test_index: 2,
      outcome: "pass",
      cpu_ms: 150,
      ms: 300,
      limit_ms: 1000,
      share: 0.15,
    },
  ];
  await write("limit_margins", toIpcStream(tableFromRows(margins, LIMIT_MARGINS)));
  const vectors = [
    { id: "q1", role: "query", vector: new Float32Array(run.vector ?? [1, 0]) },
    { id: "d1", role: "document", vector: new Float32Array([0, 1]) },
  ];
  const embedding = tableFromRows(vectors, embeddingsSpec(2), {
    config: "use",
    created_at: run.createdAt ?? "2026-12-07T10:00:00.000Z",
  });
  await Deno.writeFile(join(out, "embeddings", "use.arrow"), toIpcStream(embedding));
  return out;
}

const byFile = (vs: FileVerdict[]) => Object.fromEntries(vs.map((v) => [v.file, v]));

Deno.test("compareOutputs: identical runs are the same, file by file", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-compare-" });
  const verdicts = await compareOutputs(await writeRun(root, "a"), await writeRun(root, "b"));
  deepStrictEqual(verdicts.map((v) => [v.file, v.same, v.note]), [
    ["embeddings/use.arrow", true, "same bytes"],
    ["parquet/execution_times.parquet", true, "same bytes"],
    ["parquet/executions.parquet", true, "same bytes"],
    ["parquet/limit_margins.parquet", true, "same bytes"],
    ["tables/execution_times.arrow", true, "same bytes"],
    ["tables/executions.arrow", true, "same bytes"],
    ["tables/limit_margins.arrow", true, "same bytes"],
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("every table of measurements has a rule for comparing it", () => {
  deepStrictEqual(Object.keys(MEASURED).sort(), measuredTables().sort());
});

Deno.test("compareOutputs: measurements and created_at are neutralised, not skipped", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-compare-" });
  const a = await writeRun(root, "a");
  const b = await writeRun(root, "b", {
    times: [900, 1, 2, 3],
    margins: [],
    createdAt: "2026-12-08T11:11:11.111Z",
  });
  const v = byFile(await compareOutputs(a, b));
  ok(v["tables/execution_times.arrow"].same, v["tables/execution_times.arrow"].note);
  match(v["tables/execution_times.arrow"].note, /measured columns ms, cpu_ms/);
  ok(v["tables/limit_margins.arrow"].same, v["tables/limit_margins.arrow"].note);
  match(v["tables/limit_margins.arrow"].note, /its rows/);
  ok(v["parquet/execution_times.parquet"].same, v["parquet/execution_times.parquet"].note);
  ok(v["embeddings/use.arrow"].same, v["embeddings/use.arrow"].note);
  match(v["embeddings/use.arrow"].note, /created_at/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("compareOutputs: a changed outcome names the file, row and column", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-compare-" });
  const changed = EXECUTION_ROWS.map((r, i) => i === 3 ? { ...r, outcome: "TIMEOUT" } : r);
  const v = byFile(
    await compareOutputs(
      await writeRun(root, "a"),
      await writeRun(root, "b", { executions: changed }),
    ),
  );
  ok(!v["tables/executions.arrow"].same);
  deepStrictEqual(
    v["tables/executions.arrow"].note,
    'row 3 (code_sha256 "c3"), column outcome: "pass" vs "TIMEOUT"',
  );
  ok(!v["parquet/executions.parquet"].same);
  // The times table has the same keys and only its ms differ: the same.
  ok(v["tables/execution_times.arrow"].same);
  await Deno.remove(root, { recursive: true });
});

Deno.test("compareOutputs: a wall-clock table's other columns still count", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-compare-" });
  const fewer = EXECUTION_ROWS.slice(0, 3);
  const v = byFile(
    await compareOutputs(
      await writeRun(root, "a"),
      await writeRun(root, "b", { executions: fewer }),
    ),
  );
  ok(!v["tables/execution_times.arrow"].same);
  match(v["tables/execution_times.arrow"].note, /4 rows vs 3 rows/);
  await Deno.remove(root, { recursive: true });
});

Deno.test("compareOutputs: a changed vector, a bad Parquet copy, a missing file", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-compare-" });
  const a = await writeRun(root, "a");
  const b = await writeRun(root, "b", {
    vector: [1, 0.5],
    timesParquet: new TextEncoder().encode("not parquet"),
  });
  await Deno.writeTextFile(join(a, "tables", "extra.arrow"), "");
  const v = byFile(await compareOutputs(a, b));
  ok(!v["embeddings/use.arrow"].same);
  match(v["embeddings/use.arrow"].note, /^row 0 \(id "q1"\), column vector: \[1,0\] vs \[1,0\.5\]/);
  ok(!v["parquet/execution_times.parquet"].same);
  match(v["parquet/execution_times.parquet"].note, /second run's copy is not the Parquet/);
  deepStrictEqual(v["tables/extra.arrow"], {
    file: "tables/extra.arrow",
    same: false,
    note: "only in the first run",
  });
  await Deno.remove(root, { recursive: true });
});

Deno.test("compareOutputs: rows out of step are matched by key, a flipped verdict first", async () => {
  const root = await Deno.makeTempDir({ prefix: "execret-compare-" });
  // The second run lacks row 1 and has row 3's verdict flipped.
  const changed = EXECUTION_ROWS.filter((_, i) => i !== 1)
    .map((r) => r.test_index === 3 ? { ...r, outcome: "TIMEOUT" } : r);
  const v = byFile(
    await compareOutputs(
      await writeRun(root, "a"),
      await writeRun(root, "b", { executions: changed }),
    ),
  );
  deepStrictEqual(
    v["tables/executions.arrow"].note,
    'row 1 (code_sha256 "c1"), column code_sha256: "c1" vs "c2"; by key, code_sha256 "c3", ' +
      'tests_sha256 "t", runtime "pyodide", test_index 3: outcome "pass" vs "TIMEOUT"',
  );
  match(
    v["tables/execution_times.arrow"].note,
    /; by key, only in the first run: code_sha256 "c1", tests_sha256 "t", runtime "pyodide", test_index 1$/,
  );
  await Deno.remove(root, { recursive: true });
});
